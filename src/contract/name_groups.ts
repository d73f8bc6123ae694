/**
 * Grouping task names by prefix, for the overview's "Group by prefix". A
 * name with a `.`, `:` or `/` belongs to the group up to and with the first
 * of them (`billing.charge` → `billing.`). Names without them (kebab-case,
 * snake_case) split at `-` or `_`, after their first word, or after the
 * second when every such name shares the first (`acme-`) and the second
 * still gives groups (`acme-billing-`, `acme-email-`), and so on. A name whose prefix no other name
 * shares is a group of its own, under its whole name.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { groupKeys, inGroup } from "./name_groups.ts";
 *
 * const keyOf = groupKeys(["billing.charge", "send-email", "send-sms", "notify-user"]);
 * assert.equal(keyOf("billing.charge"), "billing.");
 * assert.equal(keyOf("send-sms"), "send-");
 * assert.equal(keyOf("notify-user"), "notify-user");
 * assert.ok(inGroup("send-email", "send-"));
 * assert.ok(!inGroup("send.email", "send-"));
 * ```
 *
 * @module
 */

/** Separators that mark a hierarchy (`billing.charge`, `mail:send`, `reports/daily`). */
const HIERARCHY = /[.:/]/;
/** Separators between the words of a name (`send-email`, `send_email`). */
const WORD = /[-_]/g;
/** How many words deep a split may go to find groups. */
const MAX_DEPTH = 4;

/** `name` up to and with its `depth`-th word separator, or null when it has fewer. */
function wordPrefix(name: string, depth: number): string | null {
  let seen = 0;
  for (const match of name.matchAll(WORD)) {
    if (++seen === depth) return name.slice(0, match.index + 1);
  }
  return null;
}

/** How often each prefix at `depth` occurs among `names`. */
function countAt(names: readonly string[], depth: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (const name of names) {
    const prefix = wordPrefix(name, depth);
    if (prefix !== null) counts.set(prefix, (counts.get(prefix) ?? 0) + 1);
  }
  return counts;
}

/** The counts of the prefixes at `depth` that two names or more share. */
function sharedAt(names: readonly string[], depth: number): number[] {
  return [...countAt(names, depth).values()].filter((count) => count > 1);
}

/**
 * The depth at which `names` (none with a hierarchy separator) fall into
 * groups: one word, unless every name shares it and the next word still
 * gives groups.
 */
function usefulDepth(names: readonly string[]): number {
  let depth = 1;
  while (depth < MAX_DEPTH) {
    const shared = sharedAt(names, depth);
    const sharedByAll = shared.length === 1 && shared[0] === names.length;
    if (!sharedByAll || sharedAt(names, depth + 1).length === 0) break;
    depth++;
  }
  return depth;
}

/** The group key of every name in `names`: a function of the name, for those names. */
export function groupKeys(names: Iterable<string>): (name: string) => string {
  const flat = [...new Set(names)].filter((name) => !HIERARCHY.test(name));
  const depth = usefulDepth(flat);
  const counts = countAt(flat, depth);
  return (name) => {
    const end = name.search(HIERARCHY);
    if (end >= 0) return name.slice(0, end + 1);
    const prefix = wordPrefix(name, depth);
    return prefix !== null && (counts.get(prefix) ?? 0) > 1 ? prefix : name;
  };
}

/**
 * Whether `name` is in the group keyed `key` (a key {@link groupKeys}
 * gave): the whole name, or a prefix ending in a separator, a hierarchy one
 * or, for a name without those, a word one.
 */
export function inGroup(name: string, key: string): boolean {
  if (name === key) return true;
  if (!name.startsWith(key)) return false;
  const last = key.at(-1) ?? "";
  if (HIERARCHY.test(last)) return name.search(HIERARCHY) === key.length - 1;
  return /[-_]/.test(last) && !HIERARCHY.test(name);
}
