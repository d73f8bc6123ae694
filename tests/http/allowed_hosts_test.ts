/**
 * `allowedHosts`: the names the board answers to. A request whose `Host`
 * is not one of them is refused with 403 `HOST_NOT_ALLOWED` before any
 * route, so a page on a name that resolves to the board (DNS rebinding)
 * can neither read nor write; and the same-origin check takes the board's
 * origin from the allowed hosts, never from whatever `Host` a request names.
 */

import assert from "node:assert/strict";
import { createBoard } from "../helpers/checked_board.ts";
import { type BoardOptions, BoardOptionsError } from "../../src/options.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import { readFixture } from "../helpers/fixture.ts";

const SESSION: BoardOptions["auth"] = {
  cookiePassword: "a-cookie-secret-of-at-least-32-chars!",
  authenticate: () => ({ name: "ada" }),
};

function boardOf(options: BoardOptions) {
  const source = createMemorySource({ seed: readFixture() });
  const board = createBoard(source, options);
  const send = (url: string, init: RequestInit = {}) =>
    Promise.resolve(board.fetch(new Request(url, init)));
  return {
    send,
    async close() {
      await board.close();
      await source.close();
    },
  };
}

async function expectRefusedHost(response: Response, label: string): Promise<void> {
  assert.equal(response.status, 403, label);
  const body = await response.json();
  assert.equal(body.code, "HOST_NOT_ALLOWED", label);
  assert.match(body.error, /allowedHosts/, label);
}

const PAUSE = {
  method: "POST",
  headers: { "content-type": "application/json", origin: "http://rebind.attacker.example:3000" },
  body: "{}",
};

Deno.test("a Host outside allowedHosts is refused before any route: API, SPA, events, metrics, auth", async () => {
  const { send, close } = boardOf({ allowedHosts: ["board.example.com"] });
  try {
    const foreign = "http://rebind.attacker.example:3000/board";
    for (const path of ["/api/dlq", "/api/overview", "/", "/dlq", "/api/events", "/metrics"]) {
      await expectRefusedHost(await send(`${foreign}${path}`), path);
    }
    await expectRefusedHost(await send(`${foreign}/api/schedules/heartbeat/pause`, PAUSE), "pause");
    for (
      const url of [
        "http://board.example.com/board/api/dlq",
        "http://BOARD.example.com:8443/board/",
      ]
    ) {
      const response = await send(url);
      assert.equal(response.status, 200, url);
      await response.body?.cancel();
    }
  } finally {
    await close();
  }
});

Deno.test("the login routes are behind the host check too", async () => {
  const { send, close } = boardOf({ allowedHosts: ["board.example.com"], auth: SESSION });
  try {
    const form = new URLSearchParams({ username: "ada", password: "x" });
    await expectRefusedHost(
      await send("http://rebind.attacker.example/board/auth/login", { method: "POST", body: form }),
      "login",
    );
    await expectRefusedHost(await send("http://rebind.attacker.example/board/login"), "login page");
  } finally {
    await close();
  }
});

Deno.test("allowedHosts entries: a port pins it, a leading dot takes every subdomain, IPv6 in brackets", async () => {
  const { send, close } = boardOf({
    allowedHosts: ["pinned.example:8080", ".corp.example", "[::1]", "10.0.0.5"],
  });
  try {
    const allowed = [
      "http://pinned.example:8080",
      "http://corp.example",
      "http://board.corp.example:3000",
      "http://a.b.corp.example",
      "http://[::1]:3000",
      "http://10.0.0.5:3000",
    ];
    for (const origin of allowed) {
      const response = await send(`${origin}/board/api/config`);
      assert.equal(response.status, 200, origin);
      await response.body?.cancel();
    }
    const refused = [
      "http://pinned.example:8081",
      "http://pinned.example",
      "http://evilcorp.example",
      "http://corp.example.attacker.example",
      "http://localhost:3000",
      "http://127.0.0.1:3000",
      "http://10.0.0.50",
    ];
    for (const origin of refused) {
      await expectRefusedHost(await send(`${origin}/board/api/config`), origin);
    }
  } finally {
    await close();
  }
});

Deno.test("trustProxy: X-Forwarded-Host must be allowed as well as Host", async () => {
  const hosts = ["board.example.com", "127.0.0.1"];
  const behindProxy = boardOf({ allowedHosts: hosts, trustProxy: true });
  const direct = boardOf({ allowedHosts: hosts });
  try {
    const upstream = "http://127.0.0.1:3000/board/api/config";
    const forwarded = (name: string) => ({ headers: { "x-forwarded-host": name } });
    await expectRefusedHost(
      await behindProxy.send(upstream, forwarded("rebind.attacker.example")),
      "forwarded foreign name",
    );
    const ok = await behindProxy.send(upstream, forwarded("board.example.com"));
    assert.equal(ok.status, 200);
    await ok.body?.cancel();
    // Without trustProxy the header is anyone's to send, and means nothing.
    const ignored = await direct.send(upstream, forwarded("rebind.attacker.example"));
    assert.equal(ignored.status, 200);
    await ignored.body?.cancel();
  } finally {
    await behindProxy.close();
    await direct.close();
  }
});

Deno.test("the same-origin check takes the board's origin from the allowed hosts, not from Host", async () => {
  const { send, close } = boardOf({
    allowedHosts: ["board.example.com", "127.0.0.1"],
    trustProxy: true,
  });
  try {
    // A TLS proxy forwards the browser's request for https://board.example.com to 127.0.0.1:3000.
    const upstream = "http://127.0.0.1:3000/board/api/schedules/heartbeat/pause";
    const proxied = (origin: string) => ({
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-forwarded-host": "board.example.com",
        "x-forwarded-proto": "https",
        origin,
      },
      body: "{}",
    });
    const paused = await send(upstream, proxied("https://board.example.com"));
    assert.equal(paused.status, 200);
    await paused.body?.cancel();
    // The request names 127.0.0.1:3000 as its Host, but that is not the board's public origin.
    const other = await send(upstream, proxied("http://127.0.0.1:3000"));
    assert.equal(other.status, 403);
    assert.equal((await other.json()).code, "CROSS_ORIGIN");
  } finally {
    await close();
  }
});

Deno.test("an embedded board given no allowedHosts answers any Host (the host app names it)", async () => {
  const { send, close } = boardOf({});
  try {
    const response = await send("http://intranet-app.example/board/api/config");
    assert.equal(response.status, 200);
    await response.body?.cancel();
  } finally {
    await close();
  }
});

Deno.test("a bad allowedHosts option throws naming it", () => {
  const source = createMemorySource();
  const bad: unknown[] = [
    [],
    "localhost",
    [""],
    ["http://board.example.com"],
    ["board.example.com/board"],
    ["*"],
    ["::1"],
    ["board example"],
    ["board.example.com:99999"],
    [42],
  ];
  for (const allowedHosts of bad) {
    assert.throws(
      () => createBoard(source, { allowedHosts: allowedHosts as string[] }),
      (e: Error) => e instanceof BoardOptionsError && /"allowedHosts"/.test(e.message),
      JSON.stringify(allowedHosts),
    );
  }
});
