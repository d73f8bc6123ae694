/**
 * Reading a JSON request body: not JSON, not an object, a field of the wrong
 * type or a field the endpoint does not take are each a 400 `INVALID_PARAM`
 * that says which.
 *
 * @module
 */

import type { Context, MiddlewareHandler } from "hono";
import { invalidParam } from "../errors.ts";
import { assertFieldDepth } from "./body_depth.ts";

const JSON_TYPE = /^application\/([\w.+-]+\+)?json\b/i;
const SAFE_METHOD = /^(GET|HEAD|OPTIONS)$/;

/**
 * Refuses a mutation whose `Content-Type` is not JSON, whether it has a body
 * or not (400 `INVALID_PARAM`). A page of another site can send a form or
 * `text/plain` without a CORS preflight, but not JSON.
 */
export function jsonMutations(): MiddlewareHandler {
  return async function requireJson(c, next) {
    const type = c.req.header("content-type");
    if (!SAFE_METHOD.test(c.req.method) && !JSON_TYPE.test(type ?? "")) {
      throw invalidParam(
        "body",
        `send JSON with Content-Type: application/json (got ${
          type === undefined ? "no Content-Type" : JSON.stringify(type)
        })`,
      );
    }
    await next();
  };
}

/** A JSON object body. */
export type JsonObject = Record<string, unknown>;

/**
 * Parses the body as a JSON object that holds only `allowed` fields. An empty
 * body is `{}` unless `required`. The type was checked by {@link jsonMutations}.
 */
export async function readJsonObject(
  c: Context,
  allowed: readonly string[],
  { required = false }: { required?: boolean } = {},
): Promise<JsonObject> {
  const text = await c.req.text();
  if (text.trim() === "") {
    if (required) throw invalidParam("body", `expected a JSON object with ${allowed.join(", ")}`);
    return {};
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
  const unknown = Object.keys(body).filter((key) => !allowed.includes(key));
  if (unknown.length > 0) {
    throw invalidParam(
      "body",
      `unknown field${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")} (allowed: ${
        allowed.join(", ")
      })`,
    );
  }
  // Before anything is written: a deep value would be stored and weigh on every read.
  assertFieldDepth(body as JsonObject);
  return body as JsonObject;
}

/** A string field, or undefined when absent. */
export function optionalString(
  body: JsonObject,
  field: string,
  maxLength = 1000,
): string | undefined {
  const value = body[field];
  if (value === undefined) return undefined;
  if (typeof value !== "string") {
    throw invalidParam(field, `must be a string (got ${typeof value})`);
  }
  if (value.length > maxLength) {
    throw invalidParam(field, `must be at most ${maxLength} characters`);
  }
  return value;
}
