/**
 * JSON request bodies: every mutation sends JSON (a cross-site page cannot
 * without a CORS preflight), an object no deeper than the limit; each
 * route's schema (`bodyOf`, `src/api/schema/body.ts`) then refuses a field
 * it does not take or of the wrong type, naming it (400 `INVALID_PARAM`).
 *
 * @module
 */

import type { MiddlewareHandler } from "hono";
import { invalidParam } from "../errors.ts";
import { assertFieldDepth } from "./body_depth.ts";

/** A JSON media type with well-formed parameters: what the routes' body validators read. */
const JSON_TYPE = /^application\/([a-z.-]+\+)?json(;\s*[a-z0-9-]+=[^;]+)*$/i;
const SAFE_METHOD = /^(GET|HEAD|OPTIONS)$/;

/**
 * Refuses a mutation whose `Content-Type` is not JSON, whether it has a body
 * or not, and a body that is not a JSON object (400 `INVALID_PARAM`). An
 * empty body reaches the routes' schemas as `null`: `bodyOf` reads it
 * as `{}`, or refuses it when the route needs a body.
 */
export function jsonMutations(): MiddlewareHandler {
  return async function requireJson(c, next) {
    if (SAFE_METHOD.test(c.req.method)) return await next();
    const type = c.req.header("content-type");
    if (!JSON_TYPE.test(type ?? "")) {
      throw invalidParam(
        "body",
        `send JSON with Content-Type: application/json (got ${
          type === undefined ? "no Content-Type" : JSON.stringify(type)
        })`,
      );
    }
    const text = await c.req.text();
    if (text.trim() === "") {
      // Hono's JSON validator parses this cached text: blank would be its own 400, outside the catalogue.
      (c.req.bodyCache as { text?: Promise<string> }).text = Promise.resolve("null");
      return await next();
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw invalidParam("body", "not valid JSON");
    }
    if (body === null || typeof body !== "object" || Array.isArray(body)) {
      throw invalidParam("body", "must be a JSON object");
    }
    // Before anything is written: a deep value would be stored and weigh on every read.
    assertFieldDepth(body as Record<string, unknown>);
    await next();
  };
}
