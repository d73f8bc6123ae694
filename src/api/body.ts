/**
 * JSON request bodies: every mutation sends JSON (a cross-site page cannot
 * without a CORS preflight), an object no deeper than the limit; each
 * route's schema ({@link bodyOf}) then refuses a field it does not take or
 * of the wrong type, naming it (400 `INVALID_PARAM`).
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { nounFor } from "../contract/plural.ts";
import { invalidParam } from "../errors.ts";
import { assertFieldDepth } from "./body_depth.ts";

/** A JSON media type with well-formed parameters: what the routes' body validators read. */
const JSON_TYPE = /^application\/([a-z.-]+\+)?json(;\s*[a-z0-9-]+=[^;]+)*$/i;
const SAFE_METHOD = /^(GET|HEAD|OPTIONS)$/;

/**
 * Refuses a mutation whose `Content-Type` is not JSON, whether it has a body
 * or not, and a body that is not a JSON object (400 `INVALID_PARAM`). An
 * empty body reaches the routes' schemas as `null`: {@link bodyOf} reads it
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

/**
 * The schema of a JSON body holding only the fields of `shape`, whose
 * refusal of another field lists those it takes. Without `required`, an
 * empty body is `{}`.
 */
export function bodyOf<S extends z.core.$ZodLooseShape>(
  shape: S,
  { required = false }: { required?: boolean } = {},
) {
  const allowed = Object.keys(shape).join(", ") || "none";
  const object = z.strictObject(shape, {
    error: (issue) => {
      if (issue.code === "unrecognized_keys") {
        const fields = nounFor(issue.keys.length, "field");
        return `unknown ${fields} ${issue.keys.join(", ")} (allowed: ${allowed})`;
      }
      if (issue.code === "invalid_type") return `expected a JSON object with ${allowed}`;
    },
  });
  return required ? object : z.preprocess((body) => body ?? {}, object);
}

/** A JSON body's content, for a route's `request.body`. */
export function jsonBody<S extends z.ZodType>(schema: S, { required = false } = {}) {
  return { content: { "application/json": { schema } }, required };
}

/** An optional free-text field of at most `max` characters. */
export function textField(max = 1000, description?: string) {
  return z.string().max(max, { error: `must be at most ${max} characters` }).optional()
    .openapi(description ? { description } : {});
}
