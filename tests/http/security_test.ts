/**
 * Hardening: security headers, body caps, and what the board never does with
 * job data.
 */

import { isReplicaBookkeeping } from "../helpers/board_keys.ts";
import assert from "node:assert/strict";
import { auditKey } from "../../src/source/wire/keys.ts";
import { REFUSALS_PER_MINUTE } from "../../src/audit/client_limit.ts";
import type { Board } from "../../mod.ts";
import { createBoard } from "../helpers/checked_board.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import { loadFixture, readFixture } from "../helpers/fixture.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";

Deno.test("HTML pages carry a CSP that allows only the board's own code, and no framing", async () => {
  const source = createMemorySource();
  const board = createBoard(source, { logo: "https://cdn.example.com/logo.svg" });
  const response = await board.fetch(new Request("http://x/board/"));
  assert.match(response.headers.get("content-type")!, /text\/html/);
  const csp = response.headers.get("content-security-policy")!;
  assert.match(csp, /default-src 'self'/);
  assert.match(csp, /script-src 'self'(;|$)/);
  assert.match(csp, /style-src 'self' 'nonce-[^']+'/);
  assert.match(csp, /frame-ancestors 'none'/);
  assert.match(csp, /object-src 'none'/);
  assert.match(csp, /img-src 'self' data: https:\/\/cdn\.example\.com/);
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
  assert.equal(response.headers.get("x-content-type-options"), "nosniff");
  assert.equal(response.headers.get("referrer-policy"), "same-origin");
  assert.equal(response.headers.get("x-frame-options"), "DENY");
  assert.equal(response.headers.get("strict-transport-security"), null, "HSTS is the host's call");
  const html = await response.text();
  assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/, "no inline scripts");
  await source.close();
});

Deno.test("API answers carry the same CSP and headers, with no nonce: no style runs in JSON", async () => {
  const source = createMemorySource();
  const board = createBoard(source, { logo: "https://cdn.example.com/logo.svg" });
  const page = await board.fetch(new Request("http://x/board/"));
  await page.body?.cancel();
  const response = await board.fetch(new Request("http://x/board/api/config"));
  assert.equal(response.status, 200);
  await response.body?.cancel();
  const csp = response.headers.get("content-security-policy")!;
  assert.equal(
    csp,
    page.headers.get("content-security-policy")!.replace(/ 'nonce-[^']+'/, ""),
    "none drawn at each request: the page's policy, its style-src 'self' alone",
  );
  for (
    const name of [
      "x-frame-options",
      "x-content-type-options",
      "referrer-policy",
      "cross-origin-opener-policy",
      "cross-origin-resource-policy",
      "x-permitted-cross-domain-policies",
    ]
  ) {
    assert.equal(response.headers.get(name), page.headers.get(name), name);
    assert.ok(page.headers.get(name), name);
  }
  await source.close();
});

Deno.test("request bodies over 1 MiB are refused with 413 before any handler reads them", async () => {
  const source = createMemorySource();
  const board = createBoard(source);
  const response = await board.fetch(
    new Request("http://x/board/api/jobs/x/cancel", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ reason: "x".repeat(1024 * 1024 + 10) }),
    }),
  );
  assert.equal(response.status, 413);
  assert.equal((await response.json()).code, "INVALID_PARAM");
  await source.close();
});

Deno.test("API errors never leak a stack", async () => {
  const source = createMemorySource();
  const failing = Object.assign(Object.create(source), {
    listTasks: () => Promise.reject(new Error("boom at secret.ts:12")),
  });
  // Another board leads: this one's request is the only thing that fails here.
  await source.boardStore.holdLease("board", "the-leader", 3_600_000);
  const board = createBoard(failing as typeof source);
  const errors: unknown[] = [];
  const log = console.error;
  console.error = (...args: unknown[]) => errors.push(args);
  const response = await board.fetch(new Request("http://x/board/api/overview"));
  console.error = log;
  assert.equal(response.status, 500);
  assert.deepEqual(await response.json(), { error: "Internal error", code: "INTERNAL" });
  assert.equal(errors.length, 1, "logged once on the server");
  await board.close();
  await source.close();
});

// ── cross-site request forgery ──────────────────────────────────────────

const BOARD = "http://board.test";
const FAILED_JOB = "7deea1e0-af8c-4c24-bb84-c89069ee4b0a";
const ACTIVE_JOB = "d8e1df37-39dd-4863-9508-f7c9bd517880";
const WORKFLOW = "69fbb603-1f1d-4dd0-82d4-a6f176fcec3a";

/** Every mutation of the API, with a body it would accept. */
const MUTATIONS: Array<{ method: string; path: string; body?: Record<string, unknown> }> = [
  { method: "POST", path: "/tasks/send-email/retry-all" },
  { method: "POST", path: "/tasks/send-email/clean", body: { state: "completed", olderThan: 0 } },
  { method: "POST", path: `/jobs/${FAILED_JOB}/retry` },
  { method: "POST", path: `/jobs/${ACTIVE_JOB}/cancel` },
  { method: "POST", path: "/dlq/retry-all" },
  { method: "POST", path: `/dlq/${FAILED_JOB}/retry` },
  { method: "POST", path: "/schedules/heartbeat/pause" },
  { method: "POST", path: "/schedules/weekly-cleanup/resume" },
  { method: "POST", path: "/schedules/heartbeat/trigger" },
  { method: "PUT", path: "/schedules/heartbeat", body: { every: 5000 } },
  { method: "DELETE", path: "/schedules/heartbeat" },
  { method: "POST", path: `/workflows/${WORKFLOW}/cancel` },
];

/** What a page on another origin can make a browser send, without a preflight or with one a host's loose CORS let through. */
const FORGERIES: Array<{ name: string; headers: Record<string, string>; body?: string }> = [
  {
    name: "an auto-submitted form on another site, no body",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      origin: "https://evil.example",
      "sec-fetch-site": "cross-site",
    },
  },
  {
    name: "a form on a sibling origin (same site)",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      origin: "http://evil.board.test",
      "sec-fetch-site": "same-site",
    },
    body: "pattern=",
  },
  {
    name: "a multipart form from a browser without Sec-Fetch-Site",
    headers: { "content-type": "multipart/form-data; boundary=x", origin: "https://evil.example" },
    body: "--x--\r\n",
  },
  {
    name: "a text/plain fetch in no-cors mode",
    headers: { "content-type": "text/plain", origin: "https://evil.example" },
    body: "{}",
  },
  {
    name: "an untyped request from a sandboxed frame",
    headers: { origin: "null", "sec-fetch-site": "cross-site" },
  },
  {
    name: "JSON from another origin (a host's CORS let the preflight through)",
    headers: {
      "content-type": "application/json",
      origin: "https://evil.example",
      "sec-fetch-site": "cross-site",
    },
    body: "{}",
  },
];

/** Every key with its type and serialized value: equal snapshots, unchanged keyspace. */
/** Every key but the board's audit trail (which records refusals too), dumped. */
async function keyspace(client: Awaited<ReturnType<typeof connectClient>>): Promise<string[]> {
  const keys = (await client.sendCommand(["KEYS", "*"]) as string[])
    .filter((key) => key !== auditKey() && key !== auditKey(undefined, "refusals"))
    .filter((key) => !isReplicaBookkeeping(key)).sort();
  return await Promise.all(
    keys.map(async (key) => `${key} ${await client.sendCommand(["DUMP", key])}`),
  );
}

function mutate(
  board: Board,
  { method, path }: { method: string; path: string },
  headers: Record<string, string>,
  body?: string,
): Promise<Response> {
  return Promise.resolve(board.fetch(
    new Request(`${BOARD}/board/api${path}`, { method, headers, body }),
  ));
}

/** Runs `fn` on a board over a throwaway Redis holding the fixture, with a client to inspect it. */
async function withRedisBoard(
  fn: (board: Board, client: Awaited<ReturnType<typeof connectClient>>) => Promise<void>,
): Promise<void> {
  const redis = await startRedis();
  await loadFixture(redis.url);
  const client = await connectClient(redis.url);
  const board = createBoard(redis.url);
  try {
    await fn(board, client);
  } finally {
    await board.close();
    await client.close();
    await redis.stop();
  }
}

Deno.test("a mutation from another origin is refused with 403 and leaves the keyspace as it was", () =>
  withRedisBoard(async (board, client) => {
    const before = await keyspace(client);
    for (const mutation of MUTATIONS) {
      for (const forgery of FORGERIES) {
        const response = await mutate(board, mutation, forgery.headers, forgery.body);
        const label = `${mutation.method} ${mutation.path}: ${forgery.name}`;
        assert.equal(response.status, 403, label);
        const body = await response.json();
        assert.equal(body.code, "CROSS_ORIGIN", label);
        assert.match(body.error, /origin/i, label);
      }
    }
    assert.deepEqual(await keyspace(client), before, "nothing was written");

    // The same request from the board's own page does change it.
    const own = await mutate(board, MUTATIONS[0], {
      "content-type": "application/json",
      origin: BOARD,
      "sec-fetch-site": "same-origin",
    });
    assert.equal(own.status, 200);
    assert.equal((await own.json()).retried, 5);
    assert.notDeepEqual(await keyspace(client), before, "the snapshot sees a write");
  }));

Deno.test("every mutation must send Content-Type: application/json, empty body or not", () =>
  withRedisBoard(async (board, client) => {
    const before = await keyspace(client);
    const sameOrigin = { origin: BOARD, "sec-fetch-site": "same-origin" };
    const types: Array<Record<string, string>> = [
      { "content-type": "application/x-www-form-urlencoded" },
      { "content-type": "text/plain" },
      { "content-type": "multipart/form-data; boundary=x" },
      {},
    ];
    for (const mutation of MUTATIONS) {
      for (const type of types) {
        const label = `${mutation.method} ${mutation.path} ${JSON.stringify(type)}`;
        // From the board's own page: the body type is wrong.
        const own = await mutate(board, mutation, { ...type, ...sameOrigin });
        const ownBody = await own.json();
        assert.equal(own.status, 400, label);
        assert.equal(ownBody.code, "INVALID_PARAM", label);
        assert.match(ownBody.error, /Content-Type: application\/json/, label);
        // Without an Origin (curl, or a browser too old to send one): it may be a forgery.
        const anonymous = await mutate(board, mutation, type);
        const anonymousBody = await anonymous.json();
        assert.equal(anonymous.status, 403, label);
        assert.equal(anonymousBody.code, "CROSS_ORIGIN", label);
        assert.match(anonymousBody.error, /Content-Type: application\/json/, label);
      }
    }
    assert.deepEqual(await keyspace(client), before, "nothing was written");
    // Refused: recorded with the code, among the refusals, at most a few a minute per client.
    const audit = await board.fetch(new Request(`${BOARD}/board/api/audit?limit=200`));
    const { entries } = await audit.json();
    assert.ok(entries.length >= REFUSALS_PER_MINUTE, `${entries.length} entries`);
    assert.ok(entries.length < MUTATIONS.length * types.length * 2, `${entries.length} entries`);
    assert.ok(
      entries.every((e: { code: string; outcome: string }) =>
        e.outcome === "error" && (e.code === "INVALID_PARAM" || e.code === "CROSS_ORIGIN")
      ),
    );
  }));

Deno.test("a JSON Content-Type the body validators would not read is a 400 naming it, not a 500", async () => {
  const source = createMemorySource({ seed: readFixture() });
  const board = createBoard(source);
  try {
    for (const type of ["application/json; foo", "application/json;;", "application/jsonx"]) {
      const response = await board.fetch(
        new Request(`${BOARD}/board/api/tasks/send-email/retry-all`, {
          method: "POST",
          headers: { origin: BOARD, "content-type": type },
          body: "{}",
        }),
      );
      const body = await response.json();
      assert.equal(response.status, 400, type);
      assert.equal(body.code, "INVALID_PARAM", type);
      assert.match(body.error, /Content-Type: application\/json/, type);
    }
  } finally {
    await board.close();
  }
});

Deno.test("JSON mutations from the board's own origin, from tooling and behind a TLS proxy go through", async () => {
  const source = createMemorySource({ seed: readFixture() });
  const board = createBoard(source, { trustProxy: true });
  try {
    const json = { "content-type": "application/json" };
    const cases: Array<Record<string, string>> = [
      { ...json },
      { ...json, origin: BOARD },
      { ...json, origin: BOARD, "sec-fetch-site": "same-origin" },
      // A TLS-terminating proxy: the browser is on https, the board sees http.
      { ...json, origin: "https://board.test", "x-forwarded-proto": "https" },
      { ...json, origin: "https://board.test", "sec-fetch-site": "same-origin" },
    ];
    for (const headers of cases) {
      const response = await mutate(board, { method: "POST", path: "/dlq/retry-all" }, headers);
      assert.equal(response.status, 200, JSON.stringify(headers));
      assert.equal((await response.json()).ok, true);
    }
    const paused = await mutate(
      board,
      { method: "POST", path: "/schedules/heartbeat/pause" },
      { ...json, origin: BOARD },
    );
    assert.equal(paused.status, 200);
    await paused.body?.cancel();
  } finally {
    await board.close();
    await source.close();
  }
});

Deno.test("a configured cors origin can mutate; its preflight passes, others' does not", async () => {
  const source = createMemorySource({ seed: readFixture() });
  const board = createBoard(source, { cors: { origin: "https://ops.example" } });
  try {
    const preflight = (origin: string) =>
      board.fetch(
        new Request(`${BOARD}/board/api/tasks/send-email/retry-all`, {
          method: "OPTIONS",
          headers: {
            origin,
            "access-control-request-method": "POST",
            "access-control-request-headers": "content-type",
          },
        }),
      );
    const allowed = await preflight("https://ops.example");
    assert.equal(allowed.status, 204);
    assert.equal(allowed.headers.get("access-control-allow-origin"), "https://ops.example");
    assert.equal(allowed.headers.get("access-control-allow-credentials"), "true");
    const refused = await preflight("https://evil.example");
    assert.equal(refused.headers.get("access-control-allow-origin"), null);

    const response = await mutate(
      board,
      { method: "POST", path: "/tasks/send-email/retry-all" },
      {
        "content-type": "application/json",
        origin: "https://ops.example",
        "sec-fetch-site": "cross-site",
      },
    );
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("access-control-allow-origin"), "https://ops.example");
    assert.deepEqual(await response.json(), { ok: true, task: "send-email", retried: 5 });

    const other = await mutate(
      board,
      { method: "POST", path: "/dlq/retry-all" },
      { "content-type": "application/json", origin: "https://evil.example" },
    );
    assert.equal(other.status, 403);
    assert.equal((await other.json()).code, "CROSS_ORIGIN");
  } finally {
    await board.close();
    await source.close();
  }
});

// ── redaction ───────────────────────────────────────────────────────────

Deno.test("job progress is redacted in REST answers as in the event stream", async () => {
  const source = createMemorySource({ seed: readFixture() });
  const board = createBoard(source, { redact: ["token"] });
  const get = async (path: string) =>
    await (await board.fetch(new Request(`${BOARD}/board/api${path}`))).json();
  try {
    source.store.setProgress("send-email", FAILED_JOB, {
      step: "render",
      auth: { Token: "s3cret" },
      parts: [{ token: "s3cret", done: 2 }],
    });
    const expected = {
      step: "render",
      auth: { Token: "[REDACTED]" },
      parts: [{ token: "[REDACTED]", done: 2 }],
    };
    assert.deepEqual((await get(`/jobs/${FAILED_JOB}`)).progress, expected, "job detail");
    const page = await get("/tasks/send-email/jobs?state=failed&limit=100");
    const row = page.find((job: { id: string }) => job.id === FAILED_JOB);
    assert.deepEqual(row.progress, expected, "job list");
    assert.equal((await get(`/jobs/${ACTIVE_JOB}`)).progress, 10, "a number stays a number");
  } finally {
    await board.close();
    await source.close();
  }
});
