/**
 * The scaling series of a scrape (see `contract/scaling.ts` and
 * `docs/autoscaling.md`): per task, its effective backlog by kind
 * (`queue_board_task_backlog{task,kind}`) and the drain forecast's
 * 10-minute arrival and completion rates. Only for the
 * {@link SCALING_SERIES_TASKS} tasks with the most waiting jobs among
 * those with series of their own, so a scrape's added reads stay the same
 * at 20 tasks or 10,000: per such task one backlog script (looking at
 * {@link SCALING_HELD_SCAN} queued jobs of each queue for their key), and
 * in one batch each, its due-later count, its backlog sample of 10 minutes
 * ago and its last 11 minutes of counters.
 *
 * @module
 */

import { Gauge, type Registry } from "prom-client";
import { backlogOf, FORECAST_HORIZON_MS, forecastWindow, minuteOf } from "../contract/forecast.ts";
import { BACKLOG_KINDS } from "../contract/scaling.ts";
import type { QueueStats } from "../contract/states.ts";
import type { TaskSource } from "../source/types.ts";
import type { BacklogSampleStore } from "../store/backlog_samples.ts";

/** Most tasks a scrape gives scaling series. */
export const SCALING_SERIES_TASKS = 20;

/** Queued jobs of each queue a scrape looks at for a held key, per task. */
export const SCALING_HELD_SCAN = 100;

const WINDOW_MINUTES = 10;

/** The scaling gauges of one registry, and their read. */
export interface ScalingSeries {
  /** Resets the gauges and sets them for the busiest of `tasks` (those with own series). */
  read(
    tasks: readonly string[],
    stats: ReadonlyMap<string, QueueStats>,
    now: number,
  ): Promise<void>;
}

/** The scaling gauges, registered in `registry`. */
export function createScalingSeries(
  registry: Registry,
  source: TaskSource,
  store: BacklogSampleStore,
): ScalingSeries {
  const registers = [registry];
  const backlog = new Gauge({
    name: "queue_board_task_backlog",
    help: "The task's effective backlog by kind: waiting (wait list), prioritized, delayed " +
      "(delayed or retrying, due), held (queued, its concurrency key at its limit); the kinds " +
      `add up. Only for the ${SCALING_SERIES_TASKS} tasks with the most waiting jobs.`,
    labelNames: ["task", "kind"],
    registers,
  });
  const arrivals = new Gauge({
    name: "queue_board_task_arrival_rate",
    help: "Jobs of the task arriving per minute over the last 10 minutes (the drain forecast's; " +
      "absent until the leader has a backlog sample that old).",
    labelNames: ["task"],
    registers,
  });
  const completions = new Gauge({
    name: "queue_board_task_completion_rate",
    help: "Jobs of the task finishing (completed or failed) per minute over the last 10 minutes.",
    labelNames: ["task"],
    registers,
  });

  async function read(
    tasks: readonly string[],
    stats: ReadonlyMap<string, QueueStats>,
    now: number,
  ): Promise<void> {
    const busiest = [...tasks]
      .filter((task) => (stats.get(task)?.waiting ?? 0) > 0)
      .sort((a, b) => stats.get(b)!.waiting - stats.get(a)!.waiting)
      .slice(0, SCALING_SERIES_TASKS);
    const sampleMinute = minuteOf(now) - WINDOW_MINUTES * 60_000;
    const [kinds, dueLater, samples, buckets] = await Promise.all([
      Promise.all(
        busiest.map((task) =>
          source.readBacklog?.({ kind: "kinds", task, now, heldScan: SCALING_HELD_SCAN }) ?? null
        ),
      ),
      source.readBacklog?.({ kind: "dueAfter", tasks: busiest, at: now + FORECAST_HORIZON_MS }) ??
        new Map<string, number>(),
      Promise.all(
        busiest.map((task) => store.readBacklogSamples(task, [sampleMinute])),
      ),
      busiest.length === 0
        ? new Map()
        : source.getThroughputByTask(busiest, { count: WINDOW_MINUTES + 1 }),
    ]);
    for (const gauge of [backlog, arrivals, completions]) gauge.reset();
    busiest.forEach((task, i) => {
      const read = kinds[i];
      for (const kind of BACKLOG_KINDS) {
        const count = read ? read.kinds[kind] : kind === "waiting" ? stats.get(task)!.waiting : 0;
        backlog.set({ task, kind }, count);
      }
      const sample = samples[i][0];
      if (sample === null) return;
      const window = forecastWindow({
        minutes: WINDOW_MINUTES,
        sample,
        buckets: buckets.get(task) ?? [],
        backlog: backlogOf(stats.get(task)!, dueLater.get(task) ?? 0),
        now,
      });
      arrivals.set({ task }, window.arrivalRate);
      completions.set({ task }, window.completionRate);
    });
  }

  return { read };
}
