/**
 * `GET {basePath}/api/openapi.json`: it lists every route of the app and
 * nothing else, it is a well-formed OpenAPI 3.1 document, and it is guarded
 * like every API route. (That every answer of the HTTP tests matches it is
 * `tests/helpers/checked_board.ts`, used by each of them.)
 */

import assert from "node:assert/strict";
import type { BoardOptions } from "../../src/options.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import { createBoard, mismatch, routeOf } from "../helpers/checked_board.ts";

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options"];

interface Operation {
  parameters?: { name: string; in: string; required?: boolean }[];
  responses?: Record<string, unknown>;
}

type Document = {
  openapi: string;
  info: { description: string };
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components?: Record<string, Record<string, unknown>>;
  security?: unknown[];
};

async function documentOf(options: BoardOptions = {}, init: RequestInit = {}) {
  const source = createMemorySource();
  const board = createBoard(source, options);
  const base = options.basePath ?? "/board";
  try {
    const response = await board.fetch(
      new Request(`http://board.test${base === "/" ? "" : base}/api/openapi.json`, init),
    );
    return { response, board, document: response.ok ? await response.json() as Document : null };
  } finally {
    await board.close();
  }
}

/** `METHOD /api/path` for every operation of the document. */
function operationsOf(document: Document): string[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.keys(item).filter((key) => METHODS.includes(key)).map((method) =>
      `${method.toUpperCase()} /api${path}`
    )
  );
}

Deno.test("the document lists every API route of the app, and no route the app lacks", async () => {
  const { board, document } = await documentOf();
  assert.ok(document);
  const routes = board.app.routes
    .filter((route) => route.method !== "ALL" && route.path.startsWith("/api/"))
    .map((route) => `${route.method} ${route.path.replaceAll(/:(\w+)/g, "{$1}")}`);
  assert.ok(routes.length >= 38, `${routes.length} routes`);
  assert.deepEqual([...new Set(routes)].sort(), operationsOf(document).sort());
});

Deno.test("the document is OpenAPI 3.1: every $ref resolves, every operation answers", async () => {
  const { document } = await documentOf();
  assert.ok(document);
  assert.match(document.openapi, /^3\.1\.\d+$/);
  assert.deepEqual(document.servers, [{ url: "/board/api" }]);
  // Every $ref, found without recursion.
  const refs: string[] = [];
  const stack: unknown[] = [document];
  while (stack.length > 0) {
    const value = stack.pop();
    if (value === null || typeof value !== "object") continue;
    for (const [key, inner] of Object.entries(value)) {
      if (key === "$ref" && typeof inner === "string") refs.push(inner);
      else stack.push(inner);
    }
  }
  assert.ok(refs.length > 0);
  for (const ref of new Set(refs)) {
    const [, kind, name] = /^#\/components\/(\w+)\/([\w.-]+)$/.exec(ref) ?? [];
    assert.ok(document.components?.[kind]?.[name], `${ref} resolves`);
  }
  for (const [path, item] of Object.entries(document.paths)) {
    const inPath = [...path.matchAll(/{(\w+)}/g)].map(([, name]) => name);
    for (const [method, operation] of Object.entries(item)) {
      const label = `${method} ${path}`;
      assert.ok(
        operation.responses?.["200"] ?? operation.responses?.["201"],
        `${label} documents its 200 (or 201: made) answer`,
      );
      assert.ok(operation.responses?.["500"], `${label} documents the 500 answer`);
      assert.ok(operation.responses?.default, `${label} documents an auth hook's own answer`);
      const declared = (operation.parameters ?? []).filter((p) => p.in === "path");
      assert.deepEqual(declared.map((p) => p.name).sort(), [...inPath].sort(), label);
      assert.ok(declared.every((p) => p.required), `${label}: path parameters are required`);
    }
  }
});

Deno.test("each route documents the catalogue errors it answers with", async () => {
  const { document } = await documentOf();
  assert.ok(document);
  const retry = document.paths["/jobs/{jobId}/retry"].post.responses!;
  assert.deepEqual(
    Object.keys(retry).sort(),
    ["200", "400", "401", "403", "404", "409", "413", "429", "500", "503", "504", "default"],
  );
  // A user past the audit trail's limit of changes a minute is refused before it acts.
  assert.equal((retry["429"] as { description: string }).description, "TOO_MANY_ATTEMPTS");
  assert.equal((retry["404"] as { description: string }).description, "JOB_NOT_FOUND");
  const config = document.paths["/config"].get.responses!;
  assert.deepEqual(Object.keys(config).sort(), ["200", "401", "403", "500", "503", "default"]);
  // Any route, a read too, is refused for a host the board does not answer to.
  assert.equal((config["403"] as { description: string }).description, "HOST_NOT_ALLOWED");
});

Deno.test("streams and files are documented with their media types", async () => {
  const { document } = await documentOf();
  assert.ok(document);
  const contentOf = (path: string) =>
    Object.keys((document.paths[path].get.responses!["200"] as { content: object }).content);
  assert.deepEqual(contentOf("/events"), ["text/event-stream"]);
  assert.deepEqual(contentOf("/tasks/{task}/jobs/export"), ["text/csv", "application/x-ndjson"]);
  assert.deepEqual(contentOf("/dlq/export"), ["text/csv", "application/x-ndjson"]);
  assert.deepEqual(contentOf("/tasks/{task}/jobs/search"), ["application/x-ndjson"]);
  assert.deepEqual(contentOf("/audit"), ["application/json", "application/x-ndjson"]);
});

Deno.test("the document follows the base path", async () => {
  const { document } = await documentOf({ basePath: "/ops/queues" });
  assert.deepEqual(document?.servers, [{ url: "/ops/queues/api" }]);
});

const SECRET = "a-cookie-secret-of-at-least-32-chars!";

Deno.test("under session login the document needs the session, and says so", async () => {
  const auth = { cookiePassword: SECRET, authenticate: () => null, cookieName: "ops_session" };
  const { response } = await documentOf({ auth });
  assert.equal(response.status, 401);
  assert.deepEqual(await response.json(), { error: "Unauthorized" });
  // The scheme itself, from the route's own handler (the guard is what the request above met).
  const { createApi } = await import("../../src/api/mod.ts");
  const { resolveOptions } = await import("../../src/options.ts");
  const options = resolveOptions({ auth });
  const api = createApi({ options } as Parameters<typeof createApi>[0]);
  const document = await (await api.request("/openapi.json")).json() as Document;
  assert.deepEqual(document.components?.securitySchemes, {
    session: { type: "apiKey", in: "cookie", name: "ops_session" },
  });
  assert.deepEqual(document.security, [{ session: [] }]);
});

Deno.test("under an auth hook the hook answers for the document too", async () => {
  const { response } = await documentOf({
    auth: (request) =>
      request.headers.get("x-token") === "t" ? { name: "ci" } : new Response(null, { status: 418 }),
  });
  assert.equal(response.status, 418);
  const allowed = await documentOf({
    auth: (request) =>
      request.headers.get("x-token") === "t" ? { name: "ci" } : new Response(null, { status: 418 }),
  }, { headers: { "x-token": "t" } });
  assert.equal(allowed.response.status, 200);
  assert.match(allowed.document!.info.description, /auth hook/);
});

Deno.test("another origin may not read the document unless it is the board's cors origin", async () => {
  const headers = { origin: "https://evil.example" };
  const open = await documentOf({}, { headers });
  assert.equal(open.response.headers.get("access-control-allow-origin"), null);
  const withCors = await documentOf({ cors: { origin: "https://ops.example" } }, { headers });
  assert.equal(withCors.response.headers.get("access-control-allow-origin"), null);
  const allowed = await documentOf({ cors: { origin: "https://ops.example" } }, {
    headers: { origin: "https://ops.example" },
  });
  assert.equal(allowed.response.headers.get("access-control-allow-origin"), "https://ops.example");
});

Deno.test("the response check catches an answer its route does not document", async () => {
  const route = routeOf("GET", "/jobs/abc123");
  assert.ok(route);
  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  assert.match(
    (await mismatch(route, "GET", json({ id: "abc123" })))!,
    /does not match its schema/,
  );
  assert.match(
    (await mismatch(route, "GET", json({ error: "x", code: "SCHEDULE_NOT_FOUND" }, 404)))!,
    /code SCHEDULE_NOT_FOUND is not documented for 404/,
  );
  assert.match((await mismatch(route, "GET", json({}, 302)))!, /status 302 is not documented/);
  assert.equal(await mismatch(route, "GET", json({}, 302), { hook: true }), null);
  assert.equal(
    await mismatch(route, "GET", json({ error: 'Job "x" not found', code: "JOB_NOT_FOUND" }, 404)),
    null,
  );
});
