/**
 * A TaskSource with some of its methods replaced: the way a test makes one
 * read fail, counts a call, or answers with what it sets.
 *
 * @module
 */

import type { TaskSource } from "../../src/source/types.ts";

/**
 * `source`, but `overrides`' members in place of its own; every other method
 * still runs on `source` itself (its private state intact).
 *
 * @example
 * ```ts
 * import { createMemorySource } from "../../src/source/memory/mod.ts";
 * import { sourceWith } from "./source_with.ts";
 * const down = sourceWith(createMemorySource(), {
 *   listAlertRules: () => Promise.reject(new Error("store down")),
 * });
 * ```
 */
export function sourceWith<T extends TaskSource>(source: T, overrides: Partial<TaskSource>): T {
  return new Proxy(source, {
    get(target, key) {
      if (Object.hasOwn(overrides, key)) return overrides[key as keyof TaskSource];
      const value = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
