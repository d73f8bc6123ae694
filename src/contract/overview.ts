/**
 * `GET /overview`: every task's counts and health, the totals, and the store.
 *
 * @module
 */

import type { TaskHealth } from "./health.ts";
import type { QueueLatency, TaskRate } from "./latency.ts";
import type { QueueStats } from "./states.ts";
import type { HealthCounts, TaskGroup } from "./task_list.ts";
import type { Totals } from "./totals.ts";

/** One task of the overview. */
export interface OverviewTask {
  /** The task name. */
  name: string;
  /** Its job counts. */
  stats: QueueStats;
  /** Since when the `retrying` / `delayed` split of `stats` is exact (ms), or null; see `TaskCounts`. */
  retryingAsOf: number | null;
  /** How it is doing. */
  health: TaskHealth;
  /** How far its queue is behind, at the answer's time. */
  latency: QueueLatency;
  /** Its finished jobs per minute over the last hour (`RATE_MINUTES`). */
  rate: TaskRate;
}

/** The store behind the board, as the overview shows it. */
export interface StoreSummary {
  /** The store's version (Redis `redis_version`). */
  version: string;
  /** Memory in use, human-readable (`46.00M`). */
  usedMemory: string;
  /** Seconds the store has been up. */
  uptime: number;
  /** Whether the store answers. */
  connected: boolean;
}

/** The answer of `GET /overview`. */
export interface OverviewResponse {
  /**
   * Every task, sorted by name; with a query (`q`, `health`, `prefix`,
   * `sort`, `limit`, `offset`), the page it asks for.
   */
  tasks: OverviewTask[];
  /** How many tasks match the query (every task without one); `tasks` is a page of them. */
  matched: number;
  /** The counts of every task added up, whatever the query. */
  totals: Totals;
  /** How many tasks have each verdict, over every task whatever the query. */
  healthCounts: HealthCounts;
  /**
   * When every figure of the answer was true (ms): the leader's last pass
   * over the live state, at most one stats interval before the answer, or
   * the time of the answer's own read when the live state was stale.
   */
  asOf: number;
  /** With `group=prefix`: the tasks matching `q` and `health`, by name prefix. */
  groups?: TaskGroup[];
  /** The store. */
  redis: StoreSummary;
  /** Milliseconds since the board started. */
  uptime: number;
}
