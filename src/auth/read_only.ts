/**
 * The read-only board's guard: every mutation is refused with 403
 * `READ_ONLY`, but signing out everywhere, which changes no job.
 *
 * @module
 */

import type { MiddlewareHandler } from "hono";
import { BoardError } from "../errors.ts";

/** Refuses every mutation but those under `sessionsPath` (signing out everywhere). */
export function readOnlyGuard(sessionsPath: string): MiddlewareHandler {
  return async function readOnly(c, next) {
    const mutation = c.req.method !== "GET" && c.req.method !== "HEAD" &&
      c.req.method !== "OPTIONS";
    if (mutation && !c.req.path.startsWith(sessionsPath)) {
      throw new BoardError("READ_ONLY", "The board is read-only: mutations are disabled");
    }
    await next();
  };
}
