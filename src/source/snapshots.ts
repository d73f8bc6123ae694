/**
 * Queue snapshots for a source with no cheaper way to read a task's counts
 * and heads together than reading each.
 *
 * @module
 */

import type { QueueHeads, QueueSnapshot, QueueStats, StalledCount } from "./types.ts";

/**
 * A snapshot per task from its counts (the source's `getStats`) and its
 * heads, for a source with no cheaper way to read both; `stalledOf` counts a
 * task's stalled jobs, when the source reads locks.
 */
export async function snapshotsOf(
  statsRead: Promise<Map<string, QueueStats>> | Map<string, QueueStats>,
  headsRead: Promise<Map<string, QueueHeads>> | Map<string, QueueHeads>,
  stalledOf: (task: string) => StalledCount | null = () => null,
): Promise<Map<string, QueueSnapshot>> {
  const [stats, heads] = await Promise.all([statsRead, headsRead]);
  return new Map(
    [...stats].map((
      [task, counts],
    ) => [task, { stats: counts, heads: heads.get(task)!, stalled: stalledOf(task) }]),
  );
}
