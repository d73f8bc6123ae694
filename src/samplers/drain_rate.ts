/**
 * A task's queue drain rate at `now` for a waiting job's diagnosis (see
 * `contract/queue_eta.ts`): from the task's event stream over the time its
 * workers ran within the last {@link RATE_WINDOW_MS}, or, from a source
 * that reads no stream, from taskora's per-minute counters of the whole
 * window. Both count completed and failed jobs.
 *
 * @module
 */

import { RATE_WINDOW_MS } from "../contract/diagnosis.ts";
import {
  DRAIN_EVENT_DEPTH,
  type DrainRate,
  drainRateOf,
  windowRate,
} from "../contract/queue_eta.ts";
import type { TaskSource } from "../source/types.ts";

/** The task's {@link DrainRate} at `now`: one bounded stream read, or one counters read. */
export async function drainRate(source: TaskSource, task: string, now: number): Promise<DrainRate> {
  const since = now - RATE_WINDOW_MS;
  if (source.readStreams) {
    const scan = await source.readStreams({ kind: "drain", task, since, depth: DRAIN_EVENT_DEPTH });
    return drainRateOf(scan, since, DRAIN_EVENT_DEPTH, now);
  }
  const buckets = await source.getThroughput({ task, count: RATE_WINDOW_MS / 60_000 });
  return windowRate(buckets.reduce((sum, bucket) => sum + bucket.completed + bucket.failed, 0));
}
