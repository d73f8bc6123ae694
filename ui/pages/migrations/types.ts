/**
 * The answer of `GET api/tasks/{task}/migrations` (the contract's type,
 * type-only, so no server code reaches the bundle) and what the page
 * derives from it: the buckets, the versions to chart, pending counts.
 *
 * @module
 */
import type { MigrationsResponse } from "../../../src/contract/tasks.ts";

/** How a task's pending jobs are spread over its versions. */
export type Migrations = MigrationsResponse;

/** The pending buckets in display order, with their labels and colours. */
export const BUCKETS = [
  { key: "queue", label: "Queue (waiting + active)", color: "--st-waiting" },
  { key: "delayed", label: "Delayed", color: "--st-delayed" },
  { key: "retrying", label: "Retrying", color: "--st-retrying" },
] as const;

/** The versions that have pending jobs, plus the current one, ascending. */
export function chartVersions(m: Migrations): number[] {
  const versions = new Set([m.version]);
  for (const { key } of BUCKETS) {
    for (const v of Object.keys(m[key].byVersion)) versions.add(Number(v));
  }
  return [...versions].sort((a, b) => a - b);
}

/** All pending jobs of a version, across the buckets. */
export function pendingAt(m: Migrations, version: number): number {
  return BUCKETS.reduce((sum, { key }) => sum + (m[key].byVersion[version] ?? 0), 0);
}

/** All pending jobs of the task. */
export function pendingTotal(m: Migrations): number {
  return BUCKETS.reduce(
    (sum, { key }) => sum + Object.values(m[key].byVersion).reduce((a, b) => a + b, 0),
    0,
  );
}
