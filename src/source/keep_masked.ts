/**
 * Writing back data the board showed masked: under every key the board
 * redacts, the stored value is kept, never the one sent, which is the mask
 * (or, if typed over it, a value the editor could not have known the old
 * one of). A mask sent where nothing is stored to keep is refused, so the
 * literal `[REDACTED]` is never written.
 *
 * @module
 */

import { REDACTED } from "../contract/masks.ts";
import { invalidParam } from "../errors.ts";

/** The value of `parent` at `key` (an own key, or an array index), or undefined. */
function childOf(parent: unknown, key: string): unknown {
  if (Array.isArray(parent)) return /^\d+$/.test(key) ? parent[Number(key)] : undefined;
  if (parent === null || typeof parent !== "object" || !Object.hasOwn(parent, key)) {
    return undefined;
  }
  return (parent as Record<string, unknown>)[key];
}

/**
 * `sent` (JSON data from a request, at field `param`) with the value of
 * `stored` kept under every key of `maskedKeys` (any case, any depth, by
 * the same path). The walk keeps its own stack: no recursion on user data.
 *
 * @throws {BoardError} `INVALID_PARAM` naming `param` and the path, for a
 * `[REDACTED]` under a masked key where `stored` has nothing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { keepMasked } from "./keep_masked.ts";
 * assert.deepEqual(
 *   keepMasked({ token: "s3cret", n: 1 }, { token: "[REDACTED]", n: 2 }, ["token"], "data"),
 *   { token: "s3cret", n: 2 },
 * );
 * ```
 */
export function keepMasked(
  stored: unknown,
  sent: unknown,
  maskedKeys: readonly string[],
  param: string,
): unknown {
  const masked = new Set(maskedKeys.map((key) => key.toLowerCase()));
  if (masked.size === 0 || sent === null || typeof sent !== "object") return sent;
  // A copy: the caller's patch may be applied again (a write that lost a race is retried).
  const copy = JSON.parse(JSON.stringify(sent));
  const walk: { into: unknown; from: unknown; path: string }[] = [
    { into: copy, from: stored, path: param },
  ];
  while (walk.length > 0) {
    const { into, from, path } = walk.pop()!;
    if (into === null || typeof into !== "object") continue;
    for (const [key, value] of Object.entries(into)) {
      const before = childOf(from, key);
      const at = `${path}.${key}`;
      if (Array.isArray(into) || !masked.has(key.toLowerCase())) {
        walk.push({ into: value, from: before, path: at });
      } else if (before !== undefined) {
        Object.defineProperty(into, key, { value: before, enumerable: true, writable: true });
      } else if (value === REDACTED) {
        throw invalidParam(
          param,
          `${at} is ${REDACTED}, the board's mask, and nothing is stored there to keep: ` +
            "give it a value or leave it out",
        );
      }
    }
  }
  return copy;
}
