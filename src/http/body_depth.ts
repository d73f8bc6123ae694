/**
 * How deep a request body may nest. A schedule's `data` is stored as sent
 * and handed to every job it dispatches, so a body thousands of levels deep
 * would be written first and then weigh on every read and every worker; it
 * is refused before anything is written.
 *
 * @module
 */

import { invalidParam } from "../errors.ts";

/**
 * The most levels of objects and arrays a field of a request body may nest
 * (`{"a":{"b":1}}` is two). Real job data stays far below it.
 */
export const MAX_FIELD_DEPTH = 64;

/** Levels of objects and arrays in `value` (0 for a scalar), counted with an explicit stack. */
export function nestingDepth(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== "object") continue;
    if (depth > deepest) deepest = depth;
    for (const inner of Object.values(current)) {
      if (inner !== null && typeof inner === "object") stack.push([inner, depth + 1]);
    }
  }
  return deepest;
}

/**
 * Throws a 400 `INVALID_PARAM` naming the first field of `body` that nests
 * deeper than `max` levels.
 *
 * @example
 * ```ts
 * import { assertFieldDepth } from "./body_depth.ts";
 * assertFieldDepth({ data: { user: { id: 1 } } }); // fine: two levels
 * ```
 */
export function assertFieldDepth(body: Record<string, unknown>, max = MAX_FIELD_DEPTH): void {
  for (const [field, value] of Object.entries(body)) {
    if (nestingDepth(value) > max) {
      throw invalidParam(field, `nests objects and arrays more than ${max} levels deep`);
    }
  }
}
