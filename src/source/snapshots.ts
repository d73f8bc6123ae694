/**
 * Queue snapshots for a source with no cheaper way to read a task's counts
 * and heads together than reading each.
 *
 * @module
 */

import type { QueueSnapshot, StalledCount, TaskSource } from "./types.ts";

/**
 * A snapshot per task from {@link TaskSource.getStats} and
 * {@link TaskSource.getQueueHeads}, for a source with no cheaper way to read
 * both; `stalledOf` counts a task's stalled jobs, when the source reads locks.
 */
export async function snapshotsOf(
  source: Pick<TaskSource, "getStats" | "getQueueHeads">,
  tasks: string[],
  stalledOf: (task: string) => StalledCount | null = () => null,
): Promise<Map<string, QueueSnapshot>> {
  const [stats, heads] = await Promise.all([source.getStats(tasks), source.getQueueHeads(tasks)]);
  return new Map(
    [...stats].map((
      [task, counts],
    ) => [task, { stats: counts, heads: heads.get(task)!, stalled: stalledOf(task) }]),
  );
}
