/**
 * Session login: the form, the signed cookie, the guards, and everything a
 * cookie can do wrong.
 */

import assert from "node:assert/strict";
import { createBoard } from "../helpers/checked_board.ts";
import {
  cookieOf,
  form,
  SAME_ORIGIN,
  SECRET,
  sessionBoard,
  signIn,
} from "../helpers/session_board.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";

Deno.test("GET /login serves a form that works without JavaScript, title escaped", async () => {
  const { call, close } = sessionBoard();
  const response = await call("/board/login?redirect=%2Fboard%2Fdlq");
  assert.equal(response.status, 200);
  const html = await response.text();
  assert.match(html, /<form method="post" action="\/board\/auth\/login">/);
  assert.match(html, /name="redirect" value="\/board\/dlq"/);
  assert.match(html, /Ops &lt;board&gt;/);
  assert.doesNotMatch(html, /<script/);
  await close();
});

Deno.test("a good login sets an HttpOnly, SameSite=Lax cookie on the base path and 303s back", async () => {
  const { call, close } = sessionBoard();
  const response = await call(
    "/board/auth/login",
    form({ username: "ada", password: "lovelace", redirect: "/board/jobs/42?tab=logs" }),
  );
  assert.equal(response.status, 303);
  assert.equal(response.headers.get("location"), "/board/jobs/42?tab=logs");
  const cookie = response.headers.get("set-cookie")!;
  assert.match(cookie, /^queue_board_session=/);
  assert.match(cookie, /HttpOnly/);
  assert.match(cookie, /SameSite=Lax/);
  assert.match(cookie, /Path=\/board/);
  assert.doesNotMatch(cookie, /Secure/);
  assert.doesNotMatch(cookie, /Max-Age/, "no sessionTtl: a browser-session cookie");
  await close();
});

Deno.test("JSON logins work too", async () => {
  const { call, close } = sessionBoard();
  const response = await call("/board/auth/login", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "ada", password: "lovelace", redirect: "/board/dlq" }),
  });
  assert.equal(response.status, 303);
  assert.equal(response.headers.get("location"), "/board/dlq");
  await close();
});

Deno.test("the cookie is Secure over HTTPS, and behind a proxy only with trustProxy", async () => {
  const direct = sessionBoard();
  const https = await direct.call("", {
    url: "https://board.test/board/auth/login",
    ...form({ username: "ada", password: "lovelace" }),
  });
  assert.match(https.headers.get("set-cookie")!, /Secure/);
  const forwarded = { ...form({ username: "ada", password: "lovelace" }) };
  forwarded.headers = { ...forwarded.headers, "x-forwarded-proto": "https" };
  const untrusted = await direct.call("/board/auth/login", forwarded);
  assert.doesNotMatch(untrusted.headers.get("set-cookie")!, /Secure/);
  await direct.close();
  const proxied = sessionBoard({}, { trustProxy: true });
  const trusted = await proxied.call("/board/auth/login", forwarded);
  assert.match(trusted.headers.get("set-cookie")!, /Secure/);
  await proxied.close();
});

Deno.test("a failed login shows the form again with a generic message, 401, no cookie", async () => {
  const { call, close } = sessionBoard();
  for (const password of ["wrong", "LOVELACE"]) {
    const response = await call("/board/auth/login", form({ username: "ada", password }));
    assert.equal(response.status, 401);
    assert.equal(response.headers.get("set-cookie"), null);
    assert.match(await response.text(), /Invalid username or password/);
  }
  await close();
  const throwing = sessionBoard({
    authenticate: () => {
      throw new Error("LDAP down: secret detail");
    },
  });
  const response = await throwing.call("/board/auth/login", form({ username: "a", password: "b" }));
  assert.equal(response.status, 401);
  const html = await response.text();
  assert.match(html, /Invalid username or password/);
  assert.doesNotMatch(html, /LDAP/);
  await throwing.close();
});

Deno.test("a login with a missing or mistyped field is a 400, not a crash", async () => {
  const { call, close } = sessionBoard();
  assert.equal((await call("/board/auth/login", form({ username: "ada" }))).status, 400);
  const json = (body: string) =>
    call("/board/auth/login", {
      method: "POST",
      headers: { "content-type": "application/json", ...SAME_ORIGIN },
      body,
    });
  for (
    const body of ['{"username":"ada"}', '{"username":1,"password":2}', "[]", "not json", "null"]
  ) {
    const response = await json(body);
    assert.equal(response.status, 400, body);
    assert.equal((await response.json()).code, "INVALID_PARAM");
  }
  const empty = await call("/board/auth/login", { method: "POST", headers: SAME_ORIGIN });
  assert.equal(empty.status, 400);
  await close();
});

Deno.test('without a session the API is 401 with exactly {"error":"Unauthorized"}', async () => {
  const { call, close } = sessionBoard();
  for (
    const path of ["/board/api/overview", "/board/api/events", "/board/api/jobs/x", "/board/api"]
  ) {
    const response = await call(path);
    assert.equal(response.status, 401, path);
    assert.equal(await response.text(), '{"error":"Unauthorized"}');
  }
  const post = await call("/board/api/jobs/x/retry", {
    method: "POST",
    headers: { "content-type": "application/json", ...SAME_ORIGIN },
  });
  assert.equal(post.status, 401);
  await close();
});

Deno.test("without a session pages redirect to the login with the way back", async () => {
  const { call, close } = sessionBoard();
  const response = await call("/board/jobs/42?tab=logs");
  assert.equal(response.status, 302);
  assert.equal(
    response.headers.get("location"),
    "/board/login?redirect=%2Fboard%2Fjobs%2F42%3Ftab%3Dlogs",
  );
  assert.equal((await call("/board/")).status, 302);
  await close();
});

Deno.test("with a session the API and the pages are served, and config says authEnabled", async () => {
  const { call, close } = sessionBoard();
  const cookie = await signIn(call);
  const overview = await call("/board/api/overview", { headers: { cookie } });
  assert.equal(overview.status, 200);
  await overview.body?.cancel();
  const page = await call("/board/tasks/send-email", { headers: { cookie } });
  assert.equal(page.status, 200);
  await page.body?.cancel();
  const config = await (await call("/board/api/config", { headers: { cookie } })).json();
  assert.equal(config.authEnabled, true);
  await close();
});

Deno.test("tampered, truncated, foreign-key and garbage cookies are refused", async () => {
  const { call, close } = sessionBoard();
  const cookie = await signIn(call);
  const [name, value] = [
    cookie.slice(0, cookie.indexOf("=")),
    cookie.slice(cookie.indexOf("=") + 1),
  ];
  const decoded = decodeURIComponent(value);
  const dot = decoded.lastIndexOf(".");
  const payload = decoded.slice(0, dot);
  const forged = payload.replace('"Ada"', '"Eve"');
  const other = sessionBoard({ cookiePassword: "another-secret-another-secret-123456" });
  const foreign = await signIn(other.call);
  const bad = [
    `${name}=${encodeURIComponent(forged + decoded.slice(dot))}`,
    `${name}=${value.slice(0, -4)}`,
    `${name}=${encodeURIComponent(payload)}`,
    foreign,
    `${name}=garbage`,
    `${name}=`,
    `${name}=${encodeURIComponent("null." + decoded.slice(dot + 1))}`,
  ];
  for (const cookieHeader of bad) {
    const response = await call("/board/api/overview", { headers: { cookie: cookieHeader } });
    assert.equal(response.status, 401, cookieHeader);
    await response.body?.cancel();
  }
  await other.close();
  await close();
});

Deno.test("sessionTtl expires a session and rolls it forward while it is used", async () => {
  const realNow = Date.now;
  let now = realNow();
  Date.now = () => now;
  try {
    const { call, close } = sessionBoard({ sessionTtl: "1h" });
    const login = await call("/board/auth/login", form({ username: "ada", password: "lovelace" }));
    assert.match(login.headers.get("set-cookie")!, /Max-Age=3600/);
    const cookie = cookieOf(login);

    now += 5 * 60_000;
    const early = await call("/board/api/config", { headers: { cookie } });
    assert.equal(early.status, 200);
    assert.equal(early.headers.get("set-cookie"), null, "not renewed in its first tenth");

    now += 50 * 60_000;
    const renewed = await call("/board/api/config", { headers: { cookie } });
    assert.equal(renewed.status, 200);
    const fresh = cookieOf(renewed);

    now += 30 * 60_000;
    const stale = await call("/board/api/config", { headers: { cookie } });
    assert.equal(stale.status, 401, "the old cookie expired after an hour");
    const rolled = await call("/board/api/config", { headers: { cookie: fresh } });
    assert.equal(rolled.status, 200, "the renewed one lives on");
    await close();
  } finally {
    Date.now = realNow;
  }
});

Deno.test("logout clears the cookie and goes to the login page", async () => {
  const { call, close } = sessionBoard();
  const cookie = await signIn(call);
  const response = await call("/board/auth/logout", {
    method: "POST",
    headers: { cookie, ...SAME_ORIGIN },
  });
  assert.equal(response.status, 303);
  assert.equal(response.headers.get("location"), "/board/login");
  assert.match(response.headers.get("set-cookie")!, /queue_board_session=;.*Max-Age=0/);
  await close();
});

Deno.test("the login form posts only from the board's own origin (no login CSRF)", async () => {
  let attempts = 0;
  const { call, close } = sessionBoard({
    authenticate: ({ username, password }) => {
      attempts++;
      return username === "eve" && password === "eve" ? { name: "Eve" } : null;
    },
  });
  const forgeries: Array<Record<string, string>> = [
    { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
    { origin: "http://evil.board.test", "sec-fetch-site": "same-site" },
    { origin: "https://evil.example" },
    { origin: "null" },
    {},
  ];
  for (const from of forgeries) {
    const response = await call(
      "/board/auth/login",
      form({ username: "eve", password: "eve" }, from),
    );
    assert.equal(response.status, 403, JSON.stringify(from));
    assert.equal((await response.json()).code, "CROSS_ORIGIN");
    assert.equal(response.headers.get("set-cookie"), null, "no session for the attacker's account");
  }
  const json = await call("/board/auth/login", {
    method: "POST",
    headers: { "content-type": "application/json", origin: "https://evil.example" },
    body: JSON.stringify({ username: "eve", password: "eve" }),
  });
  assert.equal(json.status, 403);
  await json.body?.cancel();
  assert.equal(attempts, 0, "authenticate never ran for a forged login");

  // Browsers that send only Origin, or only Sec-Fetch-Site, still sign in from the board's page.
  const browsers: Array<Record<string, string>> = [
    { origin: "http://board.test" },
    { "sec-fetch-site": "same-origin" },
  ];
  for (const from of browsers) {
    const response = await call(
      "/board/auth/login",
      form({ username: "eve", password: "eve" }, from),
    );
    assert.equal(response.status, 303, JSON.stringify(from));
    cookieOf(response);
  }
  await close();
});

Deno.test("another site cannot sign the user out", async () => {
  const { call, close } = sessionBoard();
  const cookie = await signIn(call);
  const response = await call("/board/auth/logout", {
    method: "POST",
    headers: { cookie, origin: "https://evil.example", "sec-fetch-site": "cross-site" },
  });
  assert.equal(response.status, 403);
  assert.equal(response.headers.get("set-cookie"), null);
  await response.body?.cancel();
  await close();
});

Deno.test("with cors, a signed-in page of a cors origin can mutate: the preflight passes before auth", async () => {
  const { call, close } = sessionBoard({}, { cors: { origin: "https://ops.board.test" } });
  // An admin: a retry is an operator's or an admin's (docs/auth.md).
  const cookie = await signIn(call, "root");
  const preflight = await call("/board/api/jobs/x/retry", {
    method: "OPTIONS",
    headers: {
      origin: "https://ops.board.test",
      "access-control-request-method": "POST",
      "access-control-request-headers": "content-type",
    },
  });
  assert.equal(preflight.status, 204, "no cookie on a preflight, and no 401");
  assert.equal(preflight.headers.get("access-control-allow-origin"), "https://ops.board.test");
  assert.equal(preflight.headers.get("access-control-allow-credentials"), "true");
  assert.match(preflight.headers.get("access-control-allow-methods")!, /POST/);

  const retry = await call("/board/api/jobs/x/retry", {
    method: "POST",
    headers: {
      cookie,
      origin: "https://ops.board.test",
      "sec-fetch-site": "same-site",
      "content-type": "application/json",
    },
  });
  assert.equal(retry.status, 404, "through the guards to the route");
  assert.equal((await retry.json()).code, "JOB_NOT_FOUND");
  assert.equal(retry.headers.get("access-control-allow-origin"), "https://ops.board.test");

  const anonymous = await call("/board/api/overview", {
    headers: { origin: "https://ops.board.test" },
  });
  assert.equal(anonymous.status, 401, "the session guard still answers everything but preflights");
  assert.equal(anonymous.headers.get("access-control-allow-origin"), "https://ops.board.test");
  await anonymous.body?.cancel();
  await close();
});

Deno.test("the login never redirects outside the board", async () => {
  const { call, close } = sessionBoard();
  const attempts = [
    "https://evil.example/board",
    "//evil.example/board",
    "/\\evil.example",
    "\\\\evil.example",
    "javascript:alert(1)",
    "/other-app",
    "/board/../admin",
    "/board%2f..%2f..%2fadmin",
    "/boardroom",
    "",
  ];
  for (const redirect of attempts) {
    const response = await call(
      "/board/auth/login",
      form({ username: "ada", password: "lovelace", redirect }),
    );
    const location = response.headers.get("location")!;
    assert.ok(
      location === "/board/" || location.startsWith("/board/"),
      `${redirect} → ${location}`,
    );
    assert.ok(
      !location.includes("evil") && !location.includes("admin"),
      `${redirect} → ${location}`,
    );
  }
  await close();
});

Deno.test("auth takes one of the two forms, complete", () => {
  const source = createMemorySource();
  const hook = Object.assign(() => undefined, { cookiePassword: SECRET });
  assert.throws(() => createBoard(source, { auth: hook }), /not both/);
  assert.throws(
    () => createBoard(source, { auth: { cookiePassword: SECRET } as never }),
    /auth\.authenticate/,
  );
  assert.throws(
    () => createBoard(source, { auth: { authenticate: () => null } as never }),
    /auth\.cookiePassword/,
  );
  assert.throws(
    () =>
      createBoard(source, {
        auth: { authenticate: () => null, cookiePassword: SECRET, sessionTtl: "soon" },
      }),
    /auth\.sessionTtl/,
  );
});
