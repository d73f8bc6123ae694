/**
 * JSON text of a value of any depth, written with an explicit stack.
 *
 * User data (a job's payloads, a schedule's data) can nest thousands of
 * levels; `JSON.stringify` recurses natively and its depth limit moves with
 * what else the process has loaded (a 6,000-level schedule overflowed once
 * cronstrue was imported). This walk keeps its own stack, so depth costs
 * memory, never the call stack. It writes what `JSON.stringify` writes for
 * JSON values and for what the board answers (plain objects, arrays, strings,
 * finite numbers, booleans, null, `toJSON` such as Date's): `undefined` and
 * functions are left out of objects and are `null` in arrays, non-finite
 * numbers are `null`.
 *
 * @module
 */

/** One step: write a value (already through `toJSON`), write literal text, or leave a container. */
type Step = { value: unknown } | { text: string } | { leave: object };

/** Whether `JSON.stringify` leaves this value out of an object (`null` in an array). */
function omitted(value: unknown): boolean {
  return value === undefined || typeof value === "function" || typeof value === "symbol";
}

/** The value `JSON.stringify` serializes for `value`: its `toJSON()` when it has one. */
function jsonValue(value: unknown): unknown {
  if (value !== null && typeof value === "object") {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === "function") return toJSON.call(value);
  }
  return value;
}

/** The steps writing the members of `container`, in order. */
function membersOf(container: object): Step[] {
  const members: Step[] = [];
  if (Array.isArray(container)) {
    container.forEach((item, index) => {
      if (index > 0) members.push({ text: "," });
      members.push({ value: jsonValue(item) });
    });
    return members;
  }
  for (const [key, item] of Object.entries(container)) {
    const value = jsonValue(item);
    if (omitted(value)) continue;
    members.push({ text: `${members.length > 0 ? "," : ""}${JSON.stringify(key)}:` }, { value });
  }
  return members;
}

/**
 * `value` as JSON text, as `JSON.stringify(value)` writes it, at any depth.
 * Throws a TypeError on a value that contains itself, as `JSON.stringify`
 * does.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { jsonText } from "./json_text.ts";
 * let deep: unknown = 1;
 * for (let i = 0; i < 100_000; i++) deep = [deep];
 * assert.deepEqual(jsonText(deep).length, 200001);
 * ```
 */
export function jsonText(value: unknown): string {
  const out: string[] = [];
  const steps: Step[] = [{ value: jsonValue(value) }];
  // The containers on the current path: meeting one again is a cycle.
  const open = new Set<object>();
  while (steps.length > 0) {
    const step = steps.pop()!;
    if ("text" in step) {
      out.push(step.text);
    } else if ("leave" in step) {
      open.delete(step.leave);
    } else if (step.value === null || typeof step.value !== "object") {
      out.push(omitted(step.value) ? "null" : JSON.stringify(step.value));
    } else {
      const container = step.value;
      if (open.has(container)) throw new TypeError("Converting circular structure to JSON");
      open.add(container);
      const array = Array.isArray(container);
      out.push(array ? "[" : "{");
      steps.push({ leave: container }, { text: array ? "]" : "}" });
      const members = membersOf(container);
      // Last member first: the stack pops the first one first.
      for (let i = members.length - 1; i >= 0; i--) steps.push(members[i]);
    }
  }
  return out.join("");
}
