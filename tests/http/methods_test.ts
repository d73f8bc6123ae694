/**
 * Methods: a route asked with a method it does not take answers 405 with the
 * methods it does take in `Allow`; a path that is no route stays 404.
 */

import assert from "node:assert/strict";
import { createBoard } from "../helpers/checked_board.ts";
import type { BoardOptions } from "../../src/options.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";

const ORIGIN = "http://board.test";

function board(options: BoardOptions = {}) {
  const source = createMemorySource();
  const board = createBoard(source, options);
  const call = (method: string, path: string, headers: Record<string, string> = {}) => {
    const body = method === "GET" || method === "HEAD" ? undefined : "{}";
    const init = { method, body, headers: { "content-type": "application/json", ...headers } };
    return Promise.resolve(board.fetch(new Request(`${ORIGIN}${path}`, init)));
  };
  return { board, call, close: () => source.close() };
}

Deno.test("an API route asked with another method is 405 METHOD_NOT_ALLOWED with Allow", async () => {
  const { call, close } = board();
  const cases: Array<[string, string, string]> = [
    ["DELETE", "/board/api/overview", "GET, HEAD"],
    ["OPTIONS", "/board/api/overview", "GET, HEAD"],
    ["PUT", "/board/api/workflows/wf-1", "GET, HEAD"],
    ["GET", "/board/api/jobs/job-1/retry", "POST"],
    ["HEAD", "/board/api/dlq/retry-all", "POST"],
    ["POST", "/board/api/schedules/heartbeat", "PUT, DELETE"],
    ["PATCH", "/board/api/schedules/heartbeat", "PUT, DELETE"],
  ];
  for (const [method, path, allow] of cases) {
    const response = await call(method, path);
    assert.equal(response.status, 405, `${method} ${path}`);
    assert.equal(response.headers.get("allow"), allow, `${method} ${path}`);
    if (method === "HEAD") continue;
    const body = await response.json();
    assert.equal(body.code, "METHOD_NOT_ALLOWED");
    assert.ok(body.error.includes(method) && body.error.includes(path), body.error);
  }
  await close();
  const root = board({ basePath: "/" });
  const response = await root.call("DELETE", "/api/overview");
  assert.equal(response.status, 405, "at the root as well");
  assert.equal(response.headers.get("allow"), "GET, HEAD");
  await response.body?.cancel();
  await root.close();
});

Deno.test("a path that is no API route stays 404 NOT_FOUND, whatever the method", async () => {
  const { call, close } = board();
  for (
    const [method, path] of [
      ["GET", "/board/api/no-such-route"],
      ["DELETE", "/board/api/no-such-route"],
      ["GET", "/board/api/jobs/job-1/nothing"],
      ["POST", "/board/api/jobs/job-1/retry/again"],
      ["GET", "/board/api"],
    ]
  ) {
    const response = await call(method, path);
    assert.equal(response.status, 404, `${method} ${path}`);
    assert.equal(response.headers.get("allow"), null);
    assert.equal((await response.json()).code, "NOT_FOUND");
  }
  await close();
});

Deno.test("Allow lists what every registered API route takes, OPTIONS too when CORS is on", async () => {
  const { board: app, call, close } = board({ cors: { origin: "https://ops.example" } });
  const methodsByPath = new Map<string, Set<string>>();
  for (const { method, path } of app.app.routes) {
    if (method === "ALL" || !path.startsWith("/api/")) continue;
    const concrete = `/board${path.replace(/:[^/]+/g, "x")}`;
    methodsByPath.set(concrete, (methodsByPath.get(concrete) ?? new Set()).add(method));
  }
  assert.ok(methodsByPath.size >= 20, "the API's routes");
  for (const [path, methods] of methodsByPath) {
    const other = ["GET", "POST", "PUT", "DELETE", "PATCH"].find((m) => !methods.has(m))!;
    const response = await call(other, path, { origin: "https://ops.example" });
    assert.equal(response.status, 405, `${other} ${path}`);
    const allow = response.headers.get("allow")!.split(", ");
    for (const method of methods) assert.ok(allow.includes(method), `${path} takes ${method}`);
    assert.equal(allow.includes("HEAD"), methods.has("GET"), `${path}: HEAD with GET`);
    assert.equal(allow.at(-1), "OPTIONS", `${path}: preflight`);
    await response.body?.cancel();
  }
  const preflight = await call("OPTIONS", "/board/api/overview", {
    origin: "https://ops.example",
    "access-control-request-method": "GET",
  });
  assert.equal(preflight.status, 204, "CORS still answers the preflight itself");
  await close();
});

Deno.test("pages and the login routes answer 405 with Allow too", async () => {
  const { call, close } = board({
    auth: { cookiePassword: "c".repeat(32), authenticate: () => null },
  });
  const cases: Array<[string, string, string]> = [
    ["POST", "/board/login", "GET, HEAD"],
    ["PUT", "/board/auth/login", "GET, HEAD, POST"],
    ["DELETE", "/board/assets/app.js", "GET, HEAD"],
  ];
  for (const [method, path, allow] of cases) {
    const response = await call(method, path);
    assert.equal(response.status, 405, `${method} ${path}`);
    assert.equal(response.headers.get("allow"), allow, `${method} ${path}`);
    assert.equal(await response.text(), "Method Not Allowed");
  }
  await close();
  const open = board();
  for (const path of ["/board/", "/board/jobs/job-1"]) {
    const response = await open.call("POST", path);
    assert.equal(response.status, 405, `POST ${path}`);
    assert.equal(response.headers.get("allow"), "GET, HEAD");
    await response.body?.cancel();
  }
  const outside = await open.call("POST", "/elsewhere");
  assert.equal(outside.status, 404, "outside the base path is not the board's");
  await outside.body?.cancel();
  await open.close();
});
