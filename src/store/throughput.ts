/**
 * The day of throughput the board's leader keeps (`samplers/throughput.ts`)
 * for every board on the store: each task's finished jobs per minute over
 * the last 24 h, and their sum, as taskora's per-minute counters said at
 * the leader's last pass, so that `GET /throughput` reads what it shows
 * (one command), not every task's counters. A concern of the board's
 * store ({@link KeptThroughputStore}). Adapter: `redis/throughput.ts`
 * (under the board's root); a store without one (memory) keeps none, and
 * the board reads the counters directly.
 *
 * A series is sparse and compact: only the minutes that finished a job,
 * each as `<gap>:<completed>:<failed>` (the gap in minutes from the one
 * before, the first from the epoch; a zero count left empty), joined by
 * commas: a quiet task's day is an empty string, a busy one's about 9 KB.
 *
 * @module
 */

/** The finished jobs of one minute. */
export interface MinuteCount {
  /** The minute's start, ms. */
  minute: number;
  /** Jobs completed in it. */
  completed: number;
  /** Jobs that failed for good in it. */
  failed: number;
}

/** What the leader writes at each pass. */
export interface KeptThroughputWrite {
  /** When the counters were read (the board's clock, ms): how fresh the series is. */
  asOf: number;
  /** The newest minute read (its start, ms): the last one of every series, counting still. */
  minute: number;
  /** Every task's minutes added up, encoded ({@link encodeMinutes}); null when not all are kept. */
  total: string | null;
  /** The series of the tasks whose series changed since the last write, encoded. */
  tasks: ReadonlyMap<string, string>;
  /** Tasks no longer kept (gone from the task list): their series go. */
  removed: readonly string[];
}

/** The kept series as a board reads them. */
export interface KeptThroughputRead {
  /** When the counters were read, ms. */
  asOf: number;
  /** The newest minute read (its start, ms). */
  minute: number;
  /** The series asked for, encoded; null for a task the leader does not keep. */
  series: string | null;
}

/** Where the leader keeps the day of throughput for every board on the store. */
export interface ThroughputStore {
  /** Writes a pass: its time, the total, the changed series; removes the dropped ones. */
  write(pass: KeptThroughputWrite): Promise<void>;
  /** The total (no task) or one task's series with the pass it is from; null when none is kept. */
  read(task?: string): Promise<KeptThroughputRead | null>;
  /** Everything kept (a new leader starts from it); null when nothing is. */
  readAll(): Promise<(Omit<KeptThroughputWrite, "removed">) | null>;
  /** Notes that a board was asked for throughput: the leader keeps it only while one is. */
  noteDemand(ttlMs: number): Promise<void>;
  /** Whether a board was asked for throughput within the last noted `ttlMs`. */
  demanded(): Promise<boolean>;
}

/**
 * The kept throughput's concern of the {@link BoardStore}: null for a store
 * that keeps none (memory), whose boards read taskora's counters directly.
 */
export interface KeptThroughputStore {
  /** The day of throughput the leader keeps; null when the store keeps none. */
  readonly keptThroughput: ThroughputStore | null;
}

const MINUTE = 60_000;

/**
 * `minutes` (oldest first) as a compact string: only those that finished a job.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decodeMinutes, encodeMinutes } from "./throughput.ts";
 * const minutes = [
 *   { minute: 120_000, completed: 5, failed: 0 },
 *   { minute: 180_000, completed: 0, failed: 0 },
 *   { minute: 300_000, completed: 2, failed: 1 },
 * ];
 * assert.equal(encodeMinutes(minutes), "2:5:,3:2:1");
 * assert.deepEqual(decodeMinutes("2:5:,3:2:1"), [minutes[0], minutes[2]]);
 * ```
 */
export function encodeMinutes(minutes: Iterable<MinuteCount>): string {
  const tokens: string[] = [];
  let last = 0;
  for (const { minute, completed, failed } of minutes) {
    if (completed === 0 && failed === 0) continue;
    const index = minute / MINUTE;
    tokens.push(`${index - last}:${completed || ""}:${failed || ""}`);
    last = index;
  }
  return tokens.join(",");
}

/** The minutes of an {@link encodeMinutes} string, oldest first; what does not read is left out. */
export function decodeMinutes(text: string): MinuteCount[] {
  const minutes: MinuteCount[] = [];
  if (text === "") return minutes;
  let index = 0;
  for (const token of text.split(",")) {
    const [gap, completed, failed] = token.split(":").map(Number);
    index += gap;
    if (!Number.isFinite(index) || !(completed >= 0) || !(failed >= 0)) return minutes;
    minutes.push({ minute: index * MINUTE, completed, failed });
  }
  return minutes;
}
