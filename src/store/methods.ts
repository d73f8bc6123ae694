/**
 * What a `BoardStore` must have, so that a store of one's own is
 * checked when the board is made rather than failing at its first use. The
 * memory store is the reference: it implements every concern (`deno check`
 * holds it to the port), so a concern added to the port is checked here
 * with no list to keep.
 *
 * @module
 */

import type { ChangeFeedStore } from "./feed.ts";
import { MemoryBoardStore } from "./memory/mod.ts";
import type { KeptThroughputStore } from "./throughput.ts";

/** The members a store may leave null: it keeps none, and its boards read the queue directly. */
const MAY_BE_NULL: ReadonlySet<string> = new Set<keyof (ChangeFeedStore & KeptThroughputStore)>([
  "feed",
  "keptThroughput",
]);

/** Each member of the port by name, with the `typeof` it must have. */
const MEMBERS: readonly [string, string][] = (() => {
  const reference = new MemoryBoardStore({ shared: false }) as unknown as Record<string, unknown>;
  const names = [
    ...Object.keys(reference),
    ...Object.getOwnPropertyNames(MemoryBoardStore.prototype).filter((name) =>
      name !== "constructor"
    ),
  ];
  return names.map((name) => [name, typeof reference[name]]);
})();

/** The members `value` lacks to be a `BoardStore` (all of them for a non-object). */
export function missingStoreMembers(value: unknown): string[] {
  const members = value !== null && typeof value === "object"
    ? value as Record<string, unknown>
    : {};
  return MEMBERS
    .filter(([name, type]) => {
      const member = members[name];
      const kind: string = typeof member;
      return member === null ? !MAY_BE_NULL.has(name) : kind !== type;
    })
    .map(([name]) => name);
}
