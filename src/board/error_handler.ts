/**
 * How the board answers an error a route or a guard threw: the JSON body of
 * its `BoardError` code, logged when unexpected.
 *
 * @module
 */

import type { Context, ErrorHandler } from "hono";
import { BoardError, errorBody } from "../errors.ts";
import type { BoardMetrics } from "../metrics/route.ts";

/** Answers `error` as its code says; a 500 is logged, since nothing expected it. */
export function onError(error: Error, c: Context): Response {
  const { status, body } = errorBody(error);
  if (status === 500) console.error("queue-board: unexpected error", error);
  if (error instanceof BoardError && error.retryAfterS !== undefined) {
    c.header("Retry-After", String(error.retryAfterS));
  }
  return c.json(body, status);
}

/** The board's error handler, counting the store's errors into its metrics. */
export function countingErrors(metrics: BoardMetrics | null): ErrorHandler {
  if (!metrics) return onError;
  return function onCountedError(error, c) {
    metrics.countError(error);
    return onError(error, c);
  };
}
