/**
 * `createBoard`: its options, and the four ways to serve it.
 */

import assert from "node:assert/strict";
import { request as httpRequest } from "node:http";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Hono } from "hono";
import { createBoard } from "../helpers/checked_board.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import { readFixture } from "../helpers/fixture.ts";

const dump = readFixture();

function seeded() {
  return createMemorySource({ seed: dump });
}

Deno.test("createBoard() rejects bad options, naming the option and what is allowed", async () => {
  const source = seeded();
  const cases: Array<[Record<string, unknown>, RegExp]> = [
    [{ basePath: "board" }, /basePath.*starting with "\/"/],
    [{ basePath: "/a b" }, /basePath/],
    [{ theme: "pink" }, /theme.*"light", "dark" or "auto"/],
    [{ refreshInterval: 10 }, /refreshInterval/],
    [{ refreshInterval: "5s" }, /refreshInterval/],
    [{ redact: "password" }, /redact.*array/],
    [{ readOnly: "yes" }, /readOnly.*boolean/],
    [{ cors: { origin: "*" } }, /cors/],
    [{ formatters: { data: 1 } }, /formatters\.data/],
    [{ title: "" }, /title/],
    [{ auth: { authenticate: () => null, cookiePassword: "short" } }, /cookiePassword.*32/],
    [{ auth: { cookiePassword: "x".repeat(40) } }, /auth\.authenticate/],
    [{ colour: "red" }, /colour/],
  ];
  for (const [options, message] of cases) {
    assert.throws(() => createBoard(source, options), message, JSON.stringify(options));
  }
  assert.throws(() => createBoard("mysql://x"), /redis:\/\//);
  assert.throws(() => createBoard({} as never), /missing listTasks/);
  // Every required port method is asked for, the late additions included.
  const partial = new Proxy(source, {
    get: (target, key) =>
      key === "rerunJob" || key === "findJobsByIdPrefix" ? undefined : Reflect.get(target, key),
  });
  assert.throws(() => createBoard(partial), /\(missing findJobsByIdPrefix, rerunJob\)/);
  await source.close();
});

Deno.test("basePath is normalised: trailing slashes go, / serves at the root", async () => {
  const source = seeded();
  const trailing = createBoard(source, { basePath: "/ops/queues/" });
  assert.equal((await trailing.fetch(new Request("http://x/ops/queues/api/config"))).status, 200);
  const root = createBoard(source, { basePath: "/" });
  const config = await (await root.fetch(new Request("http://x/api/config"))).json();
  assert.equal(config.basePath, "/");
  await source.close();
});

Deno.test("board.app mounts in a host Hono app at its base path", async () => {
  const source = seeded();
  const board = createBoard(source, { basePath: "/admin/queues" });
  const host = new Hono();
  host.get("/", (c) => c.text("host home"));
  host.route("/admin/queues", board.app);
  assert.equal(await (await host.request("/")).text(), "host home");
  const overview = await host.request("/admin/queues/api/overview");
  assert.equal(overview.status, 200);
  assert.equal((await overview.json()).tasks.length, 11);
  const missing = await host.request("/admin/queues/api/jobs/nope");
  assert.equal(missing.status, 404);
  assert.equal((await missing.json()).code, "JOB_NOT_FOUND");
  const page = await host.request("/admin/queues/");
  assert.equal(page.status, 200);
  assert.match(page.headers.get("content-type") ?? "", /text\/html/);
  await source.close();
});

Deno.test("board.handler serves Node.js http requests", async () => {
  const source = seeded();
  const board = createBoard(source);
  const server = createServer(board.handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const body = await new Promise<string>((resolve, reject) => {
    httpRequest({ host: "127.0.0.1", port, path: "/board/api/config" }, (res) => {
      assert.equal(res.statusCode, 200);
      let text = "";
      res.on("data", (chunk) => text += chunk);
      res.on("end", () => resolve(text));
    }).on("error", reject).end();
  });
  assert.equal(JSON.parse(body).title, "queue-board");
  await new Promise((resolve) => server.close(resolve));
  await source.close();
});

Deno.test("board.listen starts a server, prints where, and shuts down", async () => {
  const source = seeded();
  const board = createBoard(source, { basePath: "/q" });
  const lines: string[] = [];
  const log = console.log;
  console.log = (line: string) => lines.push(line);
  const server = await board.listen(0);
  console.log = log;
  const port = server.addr.port;
  assert.equal(lines.length, 1);
  assert.ok(lines[0].startsWith(`queue-board listening on http://0.0.0.0:${port}/q (`), lines[0]);
  const response = await fetch(`http://127.0.0.1:${port}/q/api/config`);
  assert.equal(response.status, 200);
  await response.body?.cancel();
  await server.shutdown();
  await source.close();
});

Deno.test("readOnly refuses every mutation with 403 READ_ONLY before any handler", async () => {
  const source = seeded();
  const board = createBoard(source, { readOnly: true });
  for (
    const [method, path] of [
      ["POST", "/board/api/jobs/7deea1e0-af8c-4c24-bb84-c89069ee4b0a/retry"],
      ["POST", "/board/api/jobs/7deea1e0-af8c-4c24-bb84-c89069ee4b0a/retry-edited"],
      ["POST", "/board/api/jobs/7deea1e0-af8c-4c24-bb84-c89069ee4b0a/rerun"],
      ["PUT", "/board/api/schedules/heartbeat"],
      ["DELETE", "/board/api/schedules/heartbeat"],
      ["POST", "/board/api/anything"],
    ]
  ) {
    const response = await board.fetch(
      new Request(`http://x${path}`, { method, headers: { "content-type": "application/json" } }),
    );
    assert.equal(response.status, 403, `${method} ${path}`);
    assert.equal((await response.json()).code, "READ_ONLY");
  }
  assert.equal((await board.fetch(new Request("http://x/board/api/overview"))).status, 200);
  await source.close();
});

Deno.test("an auth hook runs on every API request; a Response it returns is final", async () => {
  const source = seeded();
  const seen: string[] = [];
  const board = createBoard(source, {
    auth: (request) => {
      seen.push(new URL(request.url).pathname);
      return request.headers.get("x-token") === "ok"
        ? undefined
        : new Response("go away", { status: 418 });
    },
  });
  const refused = await board.fetch(new Request("http://x/board/api/overview"));
  assert.equal(refused.status, 418);
  assert.equal(await refused.text(), "go away");
  const allowed = await board.fetch(
    new Request("http://x/board/api/overview", { headers: { "x-token": "ok" } }),
  );
  assert.equal(allowed.status, 200);
  await allowed.body?.cancel();
  assert.deepEqual(seen, ["/board/api/overview", "/board/api/overview"]);
  await source.close();
});

Deno.test("cors allows only the configured origin, with credentials", async () => {
  const source = seeded();
  const board = createBoard(source, { cors: { origin: "https://ops.example.com" } });
  const allowed = await board.fetch(
    new Request("http://x/board/api/config", { headers: { origin: "https://ops.example.com" } }),
  );
  assert.equal(allowed.headers.get("access-control-allow-origin"), "https://ops.example.com");
  assert.equal(allowed.headers.get("access-control-allow-credentials"), "true");
  const other = await board.fetch(
    new Request("http://x/board/api/config", { headers: { origin: "https://evil.example" } }),
  );
  assert.notEqual(other.headers.get("access-control-allow-origin"), "https://evil.example");
  assert.notEqual(other.headers.get("access-control-allow-origin"), "*");
  await source.close();
});
