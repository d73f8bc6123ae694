/**
 * A source whose dead-letter groups are made from the errors as the board
 * shows them. The board gives it to every reader of the groups (the DLQ
 * page and its filter, the retry of a group, the export, the alerts' error
 * shapes), so one group is one group everywhere, and no value redaction
 * hides decides a group, its count, its order or its sample.
 *
 * @module
 */

import type { ShownError, TaskSource } from "./types.ts";

/**
 * `source` whose `listDeadLetters`, `groupDeadLetters` and
 * `retryAllFailed` make their groups from the errors as `shown`; every other
 * member is the source's own.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createMemorySource } from "./memory/mod.ts";
 * import { showingErrors } from "./shown_errors.ts";
 * const source = showingErrors(createMemorySource(), (message) => message.toUpperCase());
 * assert.deepEqual(await source.groupDeadLetters(), []);
 * ```
 */
export function showingErrors<S extends TaskSource>(source: S, shown: ShownError): S {
  const own: Pick<TaskSource, "listDeadLetters" | "groupDeadLetters" | "retryAllFailed"> = {
    listDeadLetters: (offset, limit, scope) =>
      source.listDeadLetters(offset, limit, { ...scope, shown }),
    groupDeadLetters: (task) => source.groupDeadLetters(task, shown),
    retryAllFailed: (scope, beforeBatch) => source.retryAllFailed({ ...scope, shown }, beforeBatch),
  };
  return new Proxy(source, {
    get(target, key) {
      if (Object.hasOwn(own, key)) return own[key as keyof typeof own];
      const value = Reflect.get(target, key, target);
      // Bound: a class's private fields are not reachable through the proxy.
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
