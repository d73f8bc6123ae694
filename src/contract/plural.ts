/**
 * A count and its noun in agreement, by the language's own rule
 * (`Intl.PluralRules`), not by `n === 1`: the board and the UI say
 * `1 job retrying`, `2 jobs retrying`, `0 jobs`. Nouns are English; the
 * rule is too, so the words and the rule always match.
 *
 * @module
 */

const rules = new Intl.PluralRules("en-US");

/**
 * The form of `noun` that agrees with `n`: `one` for 1, else `other`
 * (by default `one` + "s").
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { nounFor } from "./plural.ts";
 * assert.deepEqual(nounFor(1, "job"), "job");
 * assert.deepEqual(nounFor(3, "entry", "entries"), "entries");
 * ```
 */
export function nounFor(n: number, one: string, other = `${one}s`): string {
  return rules.select(n) === "one" ? one : other;
}

/**
 * `n` as `format` writes it, then the agreeing noun: `countOf(1, "job")` →
 * `1 job`, `countOf(1200, "job", undefined, f)` → `1,200 jobs` with a
 * grouping `f`.
 */
export function countOf(
  n: number,
  one: string,
  other = `${one}s`,
  format: (n: number) => string = String,
): string {
  return `${format(n)} ${nounFor(n, one, other)}`;
}
