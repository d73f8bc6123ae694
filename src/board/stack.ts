/**
 * An app as data: its error handler and its layers, named, in the order they
 * run. `composeApp` turns one into a Hono app; a test reads `layerNames` to pin
 * the order (which guard runs before which), so no comment has to keep it.
 *
 * Only the outermost app has an error handler: Hono's `route` wraps every
 * handler of a mounted app that has one of its own in a composition of its
 * own, run at each request (a layer of the API met three of them), where the
 * outer app's handler answers the same errors at no cost.
 *
 * @module
 */

import { type ErrorHandler, Hono, type MiddlewareHandler } from "hono";
import { routeFallback, type RouteFallbackOptions } from "../route_fallback.ts";

/** Any Hono app: a route app of its own env and schema mounts as any other. */
// deno-lint-ignore no-explicit-any -- Hono's own `route` takes any env, schema and base path
type AnyHono = Hono<any, any, any>;

/** One step of an app, named so that a test can read where it stands. */
export type Layer =
  /** Middleware, or a handler that answers, on each path of `on` (every path without it). */
  // deno-lint-ignore no-explicit-any -- each middleware declares the env it reads and sets
  | { name: string; use: MiddlewareHandler<any>; on?: readonly string[] }
  /** An app's routes under `at`. */
  | { name: string; mount: AnyHono; at: string }
  /** The last step: 405 with `Allow`, or 404, for a request no route answered. */
  | { name: string; fallback: RouteFallbackOptions };

/**
 * An app's error handler and its layers; `false` or `null` stands for one its
 * options leave out. An app mounted in another has no error handler: the
 * outer app's answers its errors.
 */
export interface Stack {
  onError?: ErrorHandler;
  layers: readonly (Layer | false | null)[];
}

/** The layers `stack` has, in order. */
export function layersOf(stack: Stack): Layer[] {
  return stack.layers.filter((layer): layer is Layer => layer !== false && layer !== null);
}

/**
 * The names of the layers `stack` has, in order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { layerNames } from "./stack.ts";
 *
 * const readOnly = false;
 * const names = layerNames({
 *   onError: (_error, c) => c.text("error", 500),
 *   layers: [
 *     readOnly && { name: "read-only", use: (_c, next) => next() },
 *     { name: "fallback", fallback: { mountPath: "/" } },
 *   ],
 * });
 * assert.deepEqual(names, ["fallback"]);
 * ```
 */
export function layerNames(stack: Stack): string[] {
  return layersOf(stack).map((layer) => layer.name);
}

/**
 * Builds the Hono app of `stack`: its error handler, then each layer in order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Hono } from "hono";
 * import { composeApp } from "./stack.ts";
 *
 * const app = composeApp({
 *   onError: (_error, c) => c.text("error", 500),
 *   layers: [
 *     { name: "marked", use: async (c, next) => { await next(); c.header("X-Seen", "1"); } },
 *     { name: "routes", at: "/", mount: new Hono().get("/jobs", (c) => c.text("jobs")) },
 *     { name: "fallback", fallback: { mountPath: "/" } },
 *   ],
 * });
 * assert.equal((await app.request("/jobs")).headers.get("X-Seen"), "1");
 * assert.equal((await app.request("/jobs", { method: "POST" })).status, 405);
 * ```
 */
export function composeApp(stack: Stack): Hono {
  const app = new Hono();
  if (stack.onError) app.onError(stack.onError);
  for (const layer of layersOf(stack)) {
    if ("use" in layer) { for (const path of layer.on ?? ["*"]) app.use(path, layer.use); }
    else if ("mount" in layer) app.route(layer.at, layer.mount);
    else app.all("*", routeFallback(app, layer.fallback));
  }
  return app;
}

/**
 * The app of `stack` (what a host mounts, relative to its path) and the same
 * routes served under `basePath`, both answering errors with the stack's
 * handler. Mounted before the handler is set: a mounted app with no handler
 * of its own has its handlers copied as they are, not each wrapped in a
 * composition that would run at every request.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Hono } from "hono";
 * import { serveStack } from "./stack.ts";
 *
 * const down = new Hono().get("/jobs", () => {
 *   throw new Error("down");
 * });
 * const { app, served } = serveStack({
 *   onError: (error, c) => c.text(error.message, 503),
 *   layers: [{ name: "routes", at: "/", mount: down }],
 * }, "/board");
 * assert.equal((await served.request("/board/jobs")).status, 503);
 * assert.equal((await app.request("/jobs")).status, 503);
 * ```
 */
export function serveStack(
  stack: Stack & { onError: ErrorHandler },
  basePath: string,
): { app: Hono; served: Hono } {
  const app = composeApp({ layers: stack.layers });
  const served = basePath === "/" ? app : new Hono().route(basePath, app);
  app.onError(stack.onError);
  served.onError(stack.onError);
  return { app, served };
}
