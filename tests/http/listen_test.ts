/**
 * `board.listen`: where it binds, and a start line that says what is exposed
 * and warns when anyone on the network can change jobs.
 */

import assert from "node:assert/strict";
import { createBoard } from "../../mod.ts";
import { isLoopback, startLine } from "../../src/listen.ts";
import { type BoardOptions, resolveOptions } from "../../src/options.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";

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

Deno.test("startLine() says when a copied session cookie never expires, only then", () => {
  const NEVER = /login on \(a copied session cookie never expires: set sessionTtl\)/;
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

function listening(
  board: ReturnType<typeof createBoard>,
  options: Parameters<typeof board.listen>[0],
) {
  const lines: string[] = [];
  const log = console.log;
  console.log = (text: string) => lines.push(text);
  try {
    return { server: board.listen(options), lines };
  } finally {
    console.log = log;
  }
}

Deno.test("board.listen({ hostname }) binds there; listen(port) still binds every interface", async () => {
  const source = createMemorySource();
  const board = createBoard(source, { basePath: "/q" });
  const local = listening(board, { port: 0, hostname: "127.0.0.1", detail: "test" });
  assert.equal(local.server.addr.hostname, "127.0.0.1");
  assert.deepEqual(local.lines, [
    `queue-board listening on http://127.0.0.1:${local.server.addr.port}/q ` +
    "(mutations on, login off, redaction off; test)",
  ]);
  const response = await fetch(`http://127.0.0.1:${local.server.addr.port}/q/api/config`);
  assert.equal(response.status, 200);
  await response.body?.cancel();
  await local.server.shutdown();
  const every = listening(board, 0);
  assert.equal(every.server.addr.hostname, "0.0.0.0");
  assert.match(every.lines[0], WARNING);
  await every.server.shutdown();
  await source.close();
});
