/**
 * Answers carrying user data of any depth (a schedule's data, a job's
 * payload): their JSON text is written by {@link jsonText}, never by a
 * recursion whose limit depends on the process.
 *
 * @module
 */

import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { jsonText } from "../contract/json_text.ts";

/** `value` as a JSON answer with `status`, written without recursion. */
export function deepJson(c: Context, value: unknown, status: ContentfulStatusCode = 200): Response {
  return jsonAnswer(c, deepJsonText(value), status);
}

/** JSON `text` written already (by {@link deepJsonText}, or of such texts) as the answer. */
export function jsonAnswer(c: Context, text: string, status: ContentfulStatusCode = 200): Response {
  c.header("Content-Type", "application/json; charset=UTF-8");
  return c.body(text, status);
}

/**
 * The JSON text of `value`: the runtime's own writer, many times faster,
 * and the explicit stack only when that one runs out of call stack (data
 * nested deeper than the process allows it to recurse).
 */
export function deepJsonText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "null";
  } catch (error) {
    if (error instanceof RangeError) return jsonText(value);
    throw error;
  }
}
