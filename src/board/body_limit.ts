/**
 * The cap on what the API reads of a request body: past it, 413 in the API's
 * error shape, before anything parses it.
 *
 * @module
 */

import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";

/** The largest request body the API reads. */
export const API_BODY_LIMIT = 1024 * 1024;

function bodyTooLarge(c: Context): Response {
  return c.json({ error: `Request body over ${API_BODY_LIMIT} bytes`, code: "INVALID_PARAM" }, 413);
}

/** Refuses a request body over {@link API_BODY_LIMIT} with 413 `INVALID_PARAM`. */
export function apiBodyLimit(): MiddlewareHandler {
  return bodyLimit({ maxSize: API_BODY_LIMIT, onError: bodyTooLarge });
}
