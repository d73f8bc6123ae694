/**
 * The `method` label of the request histogram. A request's method is what the
 * client sent: any token is a valid method, so a client making them up would
 * add a series for each. The methods the board answers keep their name; any
 * other is one label.
 *
 * @module
 */

/** The methods the board has routes for (and HEAD, OPTIONS, which it answers on them). */
const ANSWERED = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** The label every method the board does not answer shares. */
export const OTHER_METHOD = "other";

/**
 * The label of `method`: its name if the board answers it, else {@link OTHER_METHOD}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { methodLabel } from "./method_label.ts";
 *
 * assert.equal(methodLabel("PATCH"), "PATCH");
 * assert.equal(methodLabel("PROPFIND"), "other");
 * ```
 */
export function methodLabel(method: string): string {
  return ANSWERED.has(method) ? method : OTHER_METHOD;
}
