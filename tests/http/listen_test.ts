/**
 * `board.listen`: where it binds, and a start line that says what is exposed
 * and warns when anyone on the network can change jobs.
 */

import assert from "node:assert/strict";
import { createBoard } from "../../mod.ts";
import { isLoopback, startLine } from "../../src/listen.ts";
import { type BoardOptions, resolveOptions } from "../../src/options.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import { rawGet } from "../helpers/raw_http.ts";

const session: BoardOptions["auth"] = { cookiePassword: "c".repeat(32), authenticate: () => null };
const WARNING = / WARNING: reachable from other machines with no login and mutations on/;

function line(hostname: string, options: BoardOptions = {}, detail?: string) {
  return startLine({ hostname, port: 3000 }, resolveOptions(options), detail);
}

Deno.test("startLine() says the URL, mutations, login and redaction, then the detail", () => {
  assert.equal(
    line("127.0.0.1", {}, "memory demo"),
    "queue-board listening on http://127.0.0.1:3000/board " +
      "(mutations on, login off, redaction off; memory demo)",
  );
  assert.equal(
    line("::1", {
      basePath: "/",
      readOnly: true,
      auth: { ...session, sessionTtl: "8h" },
      redact: ["password"],
    }),
    "queue-board listening on http://[::1]:3000/ (mutations off, login on, redaction on (1 key))",
  );
  assert.match(line("127.0.0.1", { auth: () => undefined }), /\(mutations on, auth hook on,/);
});

Deno.test("startLine() names the MCP endpoint only when it is off or its tools act", () => {
  assert.doesNotMatch(line("127.0.0.1"), /MCP/);
  assert.match(line("127.0.0.1", { mcp: { actions: true } }), /redaction off, MCP actions on\)$/);
  assert.match(line("127.0.0.1", { mcp: false }), /redaction off, MCP off\)$/);
});

Deno.test("startLine() says when a copied session cookie never expires, only then", () => {
  const NEVER =
    /login on \(a copied session cookie never expires: set sessionTtl, or --session-ttl on the CLI\)/;
  assert.match(line("127.0.0.1", { auth: session }), NEVER);
  for (const lifetime of [{ sessionTtl: "8h" }, { maxSessionAge: "1d" }]) {
    const auth = { ...session, ...lifetime } as BoardOptions["auth"];
    assert.doesNotMatch(line("127.0.0.1", { auth }), NEVER, JSON.stringify(lifetime));
    assert.match(line("127.0.0.1", { auth }), /, login on, /);
  }
});

Deno.test("startLine() warns off loopback with no login and mutations on, only then", () => {
  for (const hostname of ["0.0.0.0", "::", "10.0.0.5", "fe80::1", "board.internal"]) {
    assert.match(line(hostname), WARNING, hostname);
    assert.doesNotMatch(line(hostname, { readOnly: true }), WARNING, `${hostname} read-only`);
    assert.doesNotMatch(line(hostname, { auth: session }), WARNING, `${hostname} login`);
    assert.doesNotMatch(line(hostname, { auth: () => undefined }), WARNING, `${hostname} hook`);
  }
  for (const hostname of ["127.0.0.1", "127.0.0.2", "::1", "::ffff:127.0.0.1", "localhost"]) {
    assert.ok(isLoopback(hostname), hostname);
    assert.doesNotMatch(line(hostname), WARNING, hostname);
  }
});

async function listening(
  board: ReturnType<typeof createBoard>,
  options: Parameters<typeof board.listen>[0],
) {
  const lines: string[] = [];
  const log = console.log;
  console.log = (text: string) => lines.push(text);
  try {
    return { server: await board.listen(options), lines };
  } finally {
    console.log = log;
  }
}

Deno.test("board.listen({ hostname }) binds there; listen(port) still binds every interface", async () => {
  const source = createMemorySource();
  const board = createBoard(source, { basePath: "/q" });
  const local = await listening(board, { port: 0, hostname: "127.0.0.1", detail: "test" });
  assert.equal(local.server.addr.hostname, "127.0.0.1");
  assert.deepEqual(local.lines, [
    `queue-board listening on http://127.0.0.1:${local.server.addr.port}/q ` +
    "(mutations on, login off, redaction off; test)",
  ]);
  const response = await fetch(`http://127.0.0.1:${local.server.addr.port}/q/api/config`);
  assert.equal(response.status, 200);
  await response.body?.cancel();
  await local.server.shutdown();
  const every = await listening(board, 0);
  assert.equal(every.server.addr.hostname, "0.0.0.0");
  assert.match(every.lines[0], WARNING);
  await every.server.shutdown();
  await source.close();
});

const REBINDING = / WARNING: any Host is answered/;

Deno.test("startLine() warns when any Host is answered on a non-loopback interface", () => {
  for (const hostname of ["0.0.0.0", "::"]) {
    assert.match(line(hostname), REBINDING, hostname);
    assert.match(line(hostname, { auth: session }), REBINDING, `${hostname} login`);
    assert.doesNotMatch(line(hostname, { allowedHosts: ["board.example.com"] }), REBINDING);
  }
  for (const hostname of ["127.0.0.1", "::1", "localhost", "10.0.0.5", "board.internal"]) {
    assert.doesNotMatch(line(hostname), REBINDING, hostname);
  }
});

Deno.test("listen() on loopback answers localhost, 127.0.0.1 and [::1] on any port, no other Host", async () => {
  const source = createMemorySource();
  const board = createBoard(source);
  const { server } = await listening(board, { port: 0, hostname: "127.0.0.1" });
  const port = server.addr.port;
  try {
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, "localhost"]) {
      assert.equal(await rawGet(port, "/board/api/config", host), 200, host);
    }
    for (const path of ["/board/api/dlq", "/board/", "/board/metrics", "/board/api/events"]) {
      assert.equal(await rawGet(port, path, `rebind.attacker.example:${port}`), 403, path);
    }
  } finally {
    await server.shutdown();
    await board.close();
    await source.close();
  }
});

Deno.test("listen() on a named interface answers that name too; allowedHosts replaces the default", async () => {
  const source = createMemorySource();
  const named = createBoard(source);
  const listed = createBoard(source, { allowedHosts: ["board.example.com"] });
  const byName = (await listening(named, { port: 0, hostname: "localhost" })).server;
  const byList = (await listening(listed, { port: 0, hostname: "127.0.0.1" })).server;
  try {
    assert.equal(await rawGet(byName.addr.port, "/board/api/config", "localhost"), 200);
    assert.equal(await rawGet(byName.addr.port, "/board/api/config", "elsewhere.example"), 403);
    const port = byList.addr.port;
    assert.equal(await rawGet(port, "/board/api/config", "board.example.com"), 200);
    assert.equal(await rawGet(port, "/board/api/config", `127.0.0.1:${port}`), 403);
  } finally {
    await byName.shutdown();
    await byList.shutdown();
    await named.close();
    await listed.close();
    await source.close();
  }
});
