/**
 * The last handler of an app: 405 with `Allow` when the path is a route of
 * the app under other methods, 404 when it is no route at all. The methods
 * come from the routes the app registered, so they cannot drift from them.
 *
 * @module
 */

import type { Context, Handler, Hono } from "hono";
import { METHOD_NAME_ALL } from "hono/router";
import { TrieRouter } from "hono/router/trie-router";
import { BoardError } from "./errors.ts";

/** Options of {@link routeFallback}. */
export interface RouteFallbackOptions {
  /** Where the app is mounted (e.g. `/board/api`): stripped from request paths. */
  mountPath: string;
  /** The app answers OPTIONS itself on every route (CORS preflight). */
  preflight?: boolean;
  /** Answer as the API does, `{ error, code }` (else plain text, as pages are). */
  json?: boolean;
}

/** How `Allow` lists methods. */
const ORDER = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/**
 * Lists the methods a path of `app` answers to, in {@link ORDER}; none for a
 * path that is no route. Routes registered for every method (middleware, this
 * fallback) say nothing about a path and are left out. The routes are read on
 * the first call, when the app is complete.
 */
function allowedMethods(app: Hono, options: RouteFallbackOptions): (path: string) => string[] {
  const prefix = options.mountPath === "/" ? "" : options.mountPath;
  let router: TrieRouter<string> | undefined;
  return function allowed(path) {
    if (path !== prefix && !path.startsWith(`${prefix}/`)) return [];
    if (!router) {
      router = new TrieRouter<string>();
      for (const route of app.routes) {
        // Registered under one key so one match returns every method of the path.
        if (route.method !== METHOD_NAME_ALL) router.add(METHOD_NAME_ALL, route.path, route.method);
      }
    }
    const [matches] = router.match(METHOD_NAME_ALL, path.slice(prefix.length) || "/");
    const methods = new Set(matches.map(([method]) => method));
    if (methods.size === 0) return [];
    // Hono answers HEAD with the GET route.
    if (methods.has("GET")) methods.add("HEAD");
    if (options.preflight) methods.add("OPTIONS");
    return ORDER.filter((method) => methods.has(method));
  };
}

/**
 * Creates the fallback for `app`: register it last, with `app.all("*", …)`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Hono } from "hono";
 * import { routeFallback } from "./route_fallback.ts";
 *
 * const app = new Hono().get("/jobs/:id", (c) => c.text("job"));
 * app.all("*", routeFallback(app, { mountPath: "/" }));
 * const res = await app.request("/jobs/42", { method: "DELETE" });
 * assert.equal(res.status, 405);
 * assert.equal(res.headers.get("Allow"), "GET, HEAD");
 * ```
 */
export function routeFallback(app: Hono, options: RouteFallbackOptions): Handler {
  const allowed = allowedMethods(app, options);
  return function fallback(c: Context) {
    const allow = allowed(c.req.path);
    const { method, path } = c.req;
    if (allow.length === 0) {
      if (options.json) throw new BoardError("NOT_FOUND", `No API route ${method} ${path}`);
      return c.text("Not Found", 404);
    }
    c.header("Allow", allow.join(", "));
    if (options.json) {
      throw new BoardError(
        "METHOD_NOT_ALLOWED",
        `${path} does not take ${method}: it takes ${allow.join(", ")}`,
      );
    }
    return c.text("Method Not Allowed", 405);
  };
}
