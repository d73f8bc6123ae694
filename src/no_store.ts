/**
 * `Cache-Control: no-store` on answers that carry job data or need a
 * session, so that neither a browser's cache, nor a proxy, nor the back
 * button after signing out keeps a copy. Hono has no middleware for a
 * plain response header set after the route, hence this one.
 *
 * @module
 */

import type { Context, MiddlewareHandler } from "hono";

/** Which answers to leave as their route made them. */
export interface NoStoreOptions {
  /** True for an answer that may be kept (e.g. public, immutable assets). */
  except?: (c: Context) => boolean;
}

/**
 * Marks every answer that passes through it `Cache-Control: no-store`,
 * replacing what the route set (`no-cache` still lets a cache keep a copy).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Hono } from "hono";
 * import { noStore } from "./no_store.ts";
 * const app = new Hono().use("/api/*", noStore()).get("/api/job", (c) => c.json({ id: 1 }));
 * const response = await app.request("/api/job");
 * assert.equal(response.headers.get("cache-control"), "no-store");
 * ```
 */
export function noStore(options: NoStoreOptions = {}): MiddlewareHandler {
  return async function markNoStore(c, next) {
    await next();
    if (options.except?.(c)) return;
    try {
      c.res.headers.set("Cache-Control", "no-store");
    } catch {
      // An auth hook's own Response may have immutable headers: answer a copy.
      c.res = new Response(c.res.body, c.res);
      c.res.headers.set("Cache-Control", "no-store");
    }
  };
}
