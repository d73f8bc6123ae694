/**
 * The history's rollups: per task and version, per minute (kept 48 h), per
 * hour (90 days) and per day (2 years), the arrivals, outcomes, wait and run
 * time sketches, and backlog samples of each bucket.
 *
 * A bucket is a map of fields to numbers, which every store adds to in
 * place: counters (`arrivals`, `completed`, ...), sketch bins (`w:<bin>` for
 * wait, `r:<bin>` for run time, see `sketch.ts`), and two samples kept as
 * their maximum (`backlog`, `oldest`), so writing a sample twice changes
 * nothing. An entry adds to the minute, hour and day of its time at once,
 * which is the merge of the minutes into their hour: the counts and bins of
 * an hour are the sums of its minutes'.
 *
 * @module
 */

import { binOf, type SketchBins } from "./sketch.ts";
import type { HistoryEntry } from "./summary.ts";

/** How fine a rollup is. */
export type Resolution = "minute" | "hour" | "day";

/** Every resolution, finest first. */
export const RESOLUTIONS: readonly Resolution[] = ["minute", "hour", "day"];

/** A bucket's length, ms. */
export const RESOLUTION_MS: Readonly<Record<Resolution, number>> = {
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
};

/** How long each resolution is kept, ms: 48 hours, 90 days, 2 years. */
export const ROLLUP_RETENTION_MS: Readonly<Record<Resolution, number>> = {
  minute: 48 * 3_600_000,
  hour: 90 * 86_400_000,
  day: 730 * 86_400_000,
};

/** The most buckets one rollup read returns: a wider range asks for a coarser resolution. */
export const MAX_ROLLUP_POINTS = 1500;

/** The counters of a bucket. */
export const ROLLUP_COUNTERS = [
  "arrivals",
  "completed",
  "failed",
  "expired",
  "cancelled",
  "retried",
  "reruns",
] as const;

/** One counter of a bucket. */
export type RollupCounter = typeof ROLLUP_COUNTERS[number];

/** The sample fields of a bucket, kept as their maximum. */
export const MAX_FIELDS: ReadonlySet<string> = new Set(["backlog", "oldest"]);

/** Whose rollup: every task (neither), one task (all its versions), or one version of one. */
export interface RollupScope {
  /** The task, or none for every task. */
  task?: string;
  /** One version of the task. */
  version?: number;
}

/** One bucket of a rollup, read. */
export interface RollupPoint extends Record<RollupCounter, number> {
  /** The bucket's start, ms. */
  at: number;
  /** Wait times (creation to first start), as sketch bins. */
  wait: SketchBins;
  /** Run times of every attempt, as sketch bins. */
  run: SketchBins;
  /** The largest backlog sampled in the bucket, or null. */
  backlogMax: number | null;
  /** The longest a job had been waiting at a sample, ms, or null. */
  oldestWaitingMaxMs: number | null;
}

/** A sample of one task's queue, taken by the leader (at most one per task and minute counts). */
export interface BacklogSample {
  /** The task. */
  task: string;
  /** When, ms. */
  at: number;
  /** Jobs yet to finish. */
  backlog: number;
  /** How long the oldest waiting job had waited, ms, or null when none waits. */
  oldestWaitingMs: number | null;
}

/** Something to add to a bucket of every resolution: `by` to `field` at `at`. */
export interface RollupIncrement {
  /** When, ms (each resolution's bucket of it). */
  at: number;
  /** The bucket field. */
  field: string;
  /** How much. */
  by: number;
}

/** What an entry adds to its rollups, by what the store knows when it writes it. */
export interface EntryIncrements {
  /** Added whenever the entry is new. */
  always: RollupIncrement[];
  /** Added when the entry is the job's first (it arrived, in its creation minute). */
  firstOfJob: RollupIncrement;
  /** Added when the entry ends a run after the job had already ended one: taskora ran it again. */
  rerun: RollupIncrement;
}

/** The counter each outcome adds to. */
const OUTCOME_COUNTER: Readonly<Record<HistoryEntry["outcome"], RollupCounter>> = {
  retrying: "retried",
  completed: "completed",
  failed: "failed",
  expired: "expired",
  cancelled: "cancelled",
};

/**
 * What one new entry adds to its rollups: its outcome at its end, its run
 * time, and, for a first attempt that ran, its wait.
 */
export function entryIncrements(entry: HistoryEntry): EntryIncrements {
  const always: RollupIncrement[] = [{
    at: entry.endedAt,
    field: OUTCOME_COUNTER[entry.outcome],
    by: 1,
  }];
  if (entry.startedAt !== null) {
    always.push({ at: entry.endedAt, field: `r:${binOf(entry.endedAt - entry.startedAt)}`, by: 1 });
    if (entry.attempt === 1) {
      always.push({
        at: entry.endedAt,
        field: `w:${binOf(Math.max(0, entry.startedAt - entry.createdAt))}`,
        by: 1,
      });
    }
  }
  return {
    always,
    firstOfJob: { at: entry.createdAt, field: "arrivals", by: 1 },
    rerun: { at: entry.endedAt, field: "reruns", by: 1 },
  };
}

/** The sample fields a backlog sample sets (each kept as its maximum). */
export function sampleFields(sample: BacklogSample): Record<string, number> {
  const fields: Record<string, number> = { backlog: sample.backlog };
  if (sample.oldestWaitingMs !== null) fields.oldest = sample.oldestWaitingMs;
  return fields;
}

/** The scopes an entry of `task` at `version` adds to: every task, the task, and its version. */
export function scopesOf(task: string, version: number | null): RollupScope[] {
  const scopes: RollupScope[] = [{}, { task }];
  if (version !== null) scopes.push({ task, version });
  return scopes;
}

/** A scope as one string, for keys and rows: `*`, `t:<task>` or `v:<version>:<task>`. */
export function scopeId(scope: RollupScope): string {
  if (scope.task === undefined) return "*";
  return scope.version === undefined ? `t:${scope.task}` : `v:${scope.version}:${scope.task}`;
}

/** The start of the bucket holding `at`. */
export function bucketOf(at: number, resolution: Resolution): number {
  const size = RESOLUTION_MS[resolution];
  return Math.floor(at / size) * size;
}

/** A bucket's fields read back as a point. */
export function pointOf(at: number, fields: Readonly<Record<string, number>>): RollupPoint {
  const point: RollupPoint = {
    at,
    arrivals: 0,
    completed: 0,
    failed: 0,
    expired: 0,
    cancelled: 0,
    retried: 0,
    reruns: 0,
    wait: {},
    run: {},
    backlogMax: fields.backlog ?? null,
    oldestWaitingMaxMs: fields.oldest ?? null,
  };
  for (const [field, value] of Object.entries(fields)) {
    if (field.startsWith("w:")) point.wait[field.slice(2)] = value;
    else if (field.startsWith("r:")) point.run[field.slice(2)] = value;
    else if ((ROLLUP_COUNTERS as readonly string[]).includes(field)) {
      point[field as RollupCounter] = value;
    }
  }
  return point;
}

/** Adds `by` to `field` of a bucket's fields, or keeps the larger for a sample field. */
export function addToBucket(fields: Record<string, number>, field: string, by: number): void {
  fields[field] = MAX_FIELDS.has(field)
    ? Math.max(fields[field] ?? by, by)
    : (fields[field] ?? 0) + by;
}
