/**
 * A Hono router that keeps what it matched, by method and path. Hono's
 * `SmartRouter` falls back to its `TrieRouter` for the board's routes (its
 * `RegExpRouter` refuses `/dlq/:jobId/retry` beside `/dlq/retry-all`), and
 * the trie keeps nothing: each request walked its nodes and built the list
 * of handlers again, about a tenth of a GET of `/api/config` and 4 KB of its
 * garbage, for a list that is the same at every request of one path. Hono
 * has no router that keeps its matches, hence this wrapper.
 *
 * A match is kept as the router answered it, shared by the requests of its
 * path: Hono reads it (the handlers, each one's parameters), never changes
 * it; which handler runs is the request's own (`c.req.routeIndex`).
 *
 * @module
 */

import type { Result, Router } from "hono/router";
import { RegExpRouter } from "hono/router/reg-exp-router";
import { SmartRouter } from "hono/router/smart-router";
import { TrieRouter } from "hono/router/trie-router";

/** How many matches are kept: the paths a board's pages poll, and the last few others. */
export const KEPT_MATCHES = 256;

/** A path longer than this is matched at each request, not kept: the kept stay small. */
export const LONGEST_KEPT_PATH = 256;

/**
 * Hono's default router, each of whose matches is kept for the next request
 * of the same method and path; the oldest kept is dropped for a new one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Hono } from "hono";
 * import { KeptMatches } from "./kept_matches.ts";
 *
 * const app = new Hono({ router: new KeptMatches() }).get("/jobs/:id", (c) => c.text(c.req.param("id")));
 * assert.equal(await (await app.request("/jobs/1")).text(), "1");
 * assert.equal(await (await app.request("/jobs/2")).text(), "2");
 * ```
 */
export class KeptMatches<T> implements Router<T> {
  readonly #router: Router<T> = new SmartRouter<T>({
    routers: [new RegExpRouter<T>(), new TrieRouter<T>()],
  });
  /** By `${method} ${path}`, oldest first. */
  readonly #kept = new Map<string, Result<T>>();

  /** Named as Hono names its routers, with the one that matches. */
  get name(): string {
    return `KeptMatches + ${this.#router.name}`;
  }

  /** How many matches are kept now. */
  get kept(): number {
    return this.#kept.size;
  }

  /** Adds a route, as the wrapped router does (before the first match). */
  add(method: string, path: string, handler: T): void {
    this.#router.add(method, path, handler);
  }

  /** The handlers of `method` and `path`, matched by the wrapped router the first time. */
  match(method: string, path: string): Result<T> {
    const key = `${method} ${path}`;
    const kept = this.#kept.get(key);
    if (kept !== undefined) return kept;
    const matched = this.#router.match(method, path);
    if (path.length <= LONGEST_KEPT_PATH) {
      if (this.#kept.size >= KEPT_MATCHES) this.#kept.delete(this.#kept.keys().next().value!);
      this.#kept.set(key, matched);
    }
    return matched;
  }
}
