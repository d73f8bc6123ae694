/**
 * Deep, case-insensitive masking of sensitive keys in job values.
 *
 * Job values are user data of any depth (taskora stores whatever a producer
 * dispatched), so the walk keeps its own stack instead of recursing: a value
 * thousands of levels deep is masked like a flat one, never a stack overflow.
 *
 * @module
 */

import { CIRCULAR, REDACTED } from "./masks.ts";

/** A function that returns a masked copy of a value. */
export type Redactor = (value: unknown) => unknown;

type Container = Record<string, unknown> | unknown[];

/** One step of the walk: copy `value` into `into[key]`, or close an object once its children are done. */
type Step =
  | { into: Container; key: string | number; value: unknown }
  | { leave: object };

/** Sets an own property, `__proto__` included (plain assignment would set the prototype). */
function setOwn(target: Container, key: string | number, value: unknown): void {
  if (key === "__proto__") {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true });
  } else {
    (target as Record<string | number, unknown>)[key] = value;
  }
}

/** The masked copy of `root`, walked depth first with an explicit stack. */
function maskedCopy(root: unknown, masked: ReadonlySet<string>): unknown {
  const holder: unknown[] = [];
  const steps: Step[] = [{ into: holder, key: 0, value: root }];
  // The objects being copied on the current path: meeting one again is a cycle.
  const open = new Set<object>();
  while (steps.length > 0) {
    const step = steps.pop()!;
    if ("leave" in step) {
      open.delete(step.leave);
      continue;
    }
    const { into, key, value } = step;
    if (value === null || typeof value !== "object") {
      setOwn(into, key, value);
      continue;
    }
    if (open.has(value)) {
      setOwn(into, key, CIRCULAR);
      continue;
    }
    open.add(value);
    steps.push({ leave: value });
    if (Array.isArray(value)) {
      const copy: unknown[] = new Array(value.length);
      setOwn(into, key, copy);
      for (let i = value.length - 1; i >= 0; i--) {
        steps.push({ into: copy, key: i, value: value[i] });
      }
      continue;
    }
    const copy: Record<string, unknown> = {};
    setOwn(into, key, copy);
    const entries = Object.entries(value);
    // Every key is set now (masked until its copy lands), so the copy keeps
    // the source's key order.
    for (const [name] of entries) setOwn(copy, name, REDACTED);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [name, inner] = entries[i];
      if (!masked.has(name.toLowerCase())) steps.push({ into: copy, key: name, value: inner });
    }
  }
  return holder[0];
}

/**
 * Builds a redactor for the given key names. Keys match case-insensitively at
 * any depth, inside arrays too; the input is never modified. The walk is
 * iterative, so depth costs memory, not stack; a value that contains itself
 * is cut with {@link CIRCULAR}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createRedactor } from "./redact.ts";
 * const redact = createRedactor(["password"]);
 * assert.deepEqual(
 *   redact({ user: { Password: "hunter2" } }),
 *   { user: { Password: "[REDACTED]" } },
 * );
 * ```
 */
export function createRedactor(keys: readonly string[]): Redactor {
  const masked = new Set(keys.map((key) => key.toLowerCase()));
  if (masked.size === 0) return (value) => value;
  return function redact(value: unknown): unknown {
    return maskedCopy(value, masked);
  };
}
