/**
 * A TaskSource (or a BoardStore) with some of its methods replaced: the way a test makes one
 * read fail, counts a call, or answers with what it sets.
 *
 * @module
 */

import type { TaskSource } from "../../src/source/types.ts";
import type { BoardStore } from "../../src/store/types.ts";

/**
 * `source`, but `overrides`' members in place of its own; every other method
 * still runs on `source` itself (its private state intact).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createMemorySource } from "../../src/source/memory/mod.ts";
 * import { sourceWith } from "./source_with.ts";
 * const down = sourceWith(createMemorySource(), {
 *   listTasks: () => Promise.reject(new Error("Redis down")),
 * });
 * await assert.rejects(down.listTasks(), /Redis down/);
 * ```
 */
export function sourceWith<T extends TaskSource>(source: T, overrides: Partial<TaskSource>): T {
  return withOverrides(source, overrides);
}

/** `store`, but `overrides`' members in place of its own, as {@link sourceWith} for a source. */
export function storeWith<T extends BoardStore>(store: T, overrides: Partial<BoardStore>): T {
  return withOverrides(store, overrides);
}

function withOverrides<T extends object>(original: T, overrides: object): T {
  return new Proxy(original, {
    get(target, key) {
      if (Object.hasOwn(overrides, key)) return overrides[key as keyof typeof overrides];
      const value = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
