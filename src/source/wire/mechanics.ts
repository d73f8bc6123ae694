/**
 * The keys taskora's mechanics keep beside a task's jobs (taskora 0.5.0,
 * `redis/scripts.ts` and `redis/backend.ts`), all under the task's hash
 * tag `<root>:{T}:`:
 *
 * - `conc:<key>`: a per-key concurrency counter (INCR when a worker claims a
 *   job with `concurrencyKey`, DECR when it finishes); the limit is on each
 *   job's hash (`concurrencyLimit`);
 * - `throttle:<key>`: dispatches counted in the current window (`SET 1 PX
 *   window`, then INCR); `max` is the dispatch's own option, stored nowhere;
 * - `debounce:<key>`: the id of the pending delayed job a later dispatch
 *   replaces (`PX` twice the delay);
 * - `dedup:<key>`: the id of the job whose dispatch later ones fold into
 *   (deleted when it finishes);
 * - `collect:<key>:items` (list), `:meta` (hash `count`, `firstAt`,
 *   `lastAt`), `:job` (the id of the delayed flush job).
 *
 * @module
 */

/** The mechanisms whose keys the board reads. */
export type MechanismKind = "concurrency" | "throttle" | "debounce" | "dedup" | "collect";

/** What a key of a mechanism says about itself. */
export interface MechanismKey {
  /** The mechanism. */
  kind: MechanismKind;
  /** The key the dispatches named (`concurrencyKey`, throttle key, …). */
  name: string;
}

/** The family prefixes, after `<root>:{T}:`. */
const FAMILIES: readonly [string, MechanismKind][] = [
  ["conc:", "concurrency"],
  ["throttle:", "throttle"],
  ["debounce:", "debounce"],
  ["dedup:", "dedup"],
];

/**
 * A SCAN pattern that matches every mechanism key of a task (and a few job
 * keys besides, which {@link parseMechanismKey} leaves out): the families'
 * first two letters (`co`, `th`, `de`) and a `:` further on.
 */
export function mechanismPattern(jobPrefix: string): string {
  return `${jobPrefix}[cdt][oeh]*:*`;
}

/**
 * The mechanism a key of the task belongs to, or null (a job's key). A
 * collect buffer is named by its `:meta` hash only, so that each buffer is
 * read once.
 */
export function parseMechanismKey(jobPrefix: string, key: string): MechanismKey | null {
  if (!key.startsWith(jobPrefix)) return null;
  const rest = key.slice(jobPrefix.length);
  if (rest.startsWith("collect:")) {
    return rest.endsWith(":meta")
      ? { kind: "collect", name: rest.slice("collect:".length, -":meta".length) }
      : null;
  }
  for (const [family, kind] of FAMILIES) {
    if (rest.startsWith(family)) return { kind, name: rest.slice(family.length) };
  }
  return null;
}

/** The key of a mechanism (for a collect buffer, its `suffix`: `items`, `meta` or `job`). */
export function mechanismKey(
  jobPrefix: string,
  { kind, name }: MechanismKey,
  suffix: "items" | "meta" | "job" = "meta",
): string {
  switch (kind) {
    case "concurrency":
      return `${jobPrefix}conc:${name}`;
    case "collect":
      return `${jobPrefix}collect:${name}:${suffix}`;
    default:
      return `${jobPrefix}${kind}:${name}`;
  }
}
