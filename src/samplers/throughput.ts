/**
 * The day of throughput the leader keeps for every board (see
 * `store/throughput.ts`): while a board was asked for throughput lately
 * (any replica notes it in the store), once a minute the board that leads
 * reads every task's per-minute counters, the whole day on its first pass
 * and for a task it did not keep yet, else only the minutes since its last
 * pass and the {@link SETTLE_MINUTES} before (worker clocks drift: a closed
 * minute may still be counted into), and writes the series that changed
 * and their total. A new leader starts from what the last one wrote. A
 * pass that fails (Redis away) is simply missing: the next one reads from
 * the last minute kept.
 *
 * @module
 */

import type { ThroughputBucket } from "../contract/throughput.ts";
import type { Leadership } from "../leadership.ts";
import type { TaskSource } from "../source/types.ts";
import { unwatched } from "../source/unwatched.ts";
import {
  decodeMinutes,
  encodeMinutes,
  type MinuteCount,
  type ThroughputStore,
} from "../store/throughput.ts";
import type { Timers } from "../timers.ts";

const MINUTE = 60_000;
/** The minutes kept per task: the day taskora keeps its counters for. */
export const DAY_MINUTES = 1440;
/** How often a pass runs while asked, ms. */
export const THROUGHPUT_PASS_MS = 60_000;
/** Minutes before the newest one read again at each pass: still counted into. */
export const SETTLE_MINUTES = 2;
/**
 * The most tasks kept (about 11.5 KB of memory each): the others, and the
 * total past them, are read directly.
 */
export const KEPT_TASKS = 5000;
/** How often the leader looks whether a board was asked, ms: a first pass follows within it. */
const LOOK_MS = 10_000;

/** What {@link startThroughputKeeper} needs. */
export interface ThroughputKeeperOptions {
  /** Where the counters are read. */
  source: TaskSource;
  /** Where the series are kept. */
  store: ThroughputStore;
  /** Only the leader keeps them. */
  leadership: Leadership;
  /** The timers the passes run on. */
  timers: Timers;
  /** ms since the epoch: a pass's `asOf`, which every board reads. */
  clock: () => number;
  /** The most tasks kept (default {@link KEPT_TASKS}). */
  maxTasks?: number;
}

/** A running keeper. */
export interface ThroughputKeeper {
  /** Runs a pass now if this board leads and a board was asked (what each minute does). */
  pass(): Promise<void>;
  /** Stops it. */
  close(): void;
}

/**
 * Each task's day as a ring of minutes: completed in slots `0…1439`,
 * failed in `1440…2879`, a minute in slot `minute / 60000 mod 1440`.
 */
type Ring = Uint32Array;

/** The series this leader holds, and the newest minute in them. */
interface Kept {
  /** The newest minute read (start, ms); -Infinity before the first pass. */
  minute: number;
  rings: Map<string, Ring>;
  /** Each task's series as last written: only the changed ones are written again. */
  written: Map<string, string>;
}

function slotOf(minute: number): number {
  return (minute / MINUTE) % DAY_MINUTES;
}

/** The minutes of the day ending at `minute`, oldest first, as `ring` holds them. */
function* minutesOf(ring: Ring, minute: number): Generator<MinuteCount> {
  for (let m = minute - (DAY_MINUTES - 1) * MINUTE; m <= minute; m += MINUTE) {
    const slot = slotOf(m);
    yield { minute: m, completed: ring[slot], failed: ring[DAY_MINUTES + slot] };
  }
}

/** A ring holding the decoded minutes of a day ending at `minute`. */
function ringOf(series: string, minute: number): Ring {
  const ring = new Uint32Array(2 * DAY_MINUTES);
  for (const { minute: m, completed, failed } of decodeMinutes(series)) {
    if (m > minute - DAY_MINUTES * MINUTE && m <= minute) {
      ring[slotOf(m)] = completed;
      ring[DAY_MINUTES + slotOf(m)] = failed;
    }
  }
  return ring;
}

/** Puts the buckets read (one minute each) into `ring`. */
function fill(ring: Ring, buckets: readonly ThroughputBucket[]): void {
  for (const { timestamp, completed, failed } of buckets) {
    ring[slotOf(timestamp)] = completed;
    ring[DAY_MINUTES + slotOf(timestamp)] = failed;
  }
}

/** Every ring's minutes added up. */
function totalOf(rings: Iterable<Ring>): Ring {
  const total = new Uint32Array(2 * DAY_MINUTES);
  for (const ring of rings) for (let i = 0; i < total.length; i++) total[i] += ring[i];
  return total;
}

/**
 * Starts the keeper: it looks every few seconds whether a pass is due
 * (this board leads, a board was asked, a minute went by); null when the
 * board's store keeps no throughput.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { startThroughputKeeper } from "./throughput.ts";
 * import { Leadership } from "../leadership.ts";
 * import { createMemorySource } from "../source/memory/mod.ts";
 * import { systemTimers } from "../timers.ts";
 * const source = createMemorySource();
 * const keeper = startThroughputKeeper({
 *   source,
 *   store: source.boardStore.keptThroughput,
 *   leadership: new Leadership(null),
 *   timers: systemTimers,
 *   clock: Date.now,
 * });
 * assert.equal(keeper, null, "the memory store keeps none: the counters are in the process");
 * await source.close();
 * ```
 */
export function startThroughputKeeper(
  options: Omit<ThroughputKeeperOptions, "store"> & { store: ThroughputStore | null },
): ThroughputKeeper | null {
  const { store } = options;
  return store ? keepThroughput({ ...options, store }) : null;
}

/** The keeper over `store`; see {@link startThroughputKeeper}. */
export function keepThroughput(options: ThroughputKeeperOptions): ThroughputKeeper {
  const { source, store, leadership, timers, clock, maxTasks = KEPT_TASKS } = options;
  let kept: Kept | null = null;
  let lastPass = -Infinity;
  let running: Promise<void> | null = null;

  /** What the last leader wrote, when it is of the last day: this one goes on from it. */
  const resume = async (): Promise<Kept> => {
    const stored = await store.readAll();
    const fresh = stored !== null && clock() - stored.asOf < DAY_MINUTES * MINUTE;
    if (!fresh) return { minute: -Infinity, rings: new Map(), written: new Map() };
    const rings = new Map(
      [...stored.tasks].map(([task, series]) => [task, ringOf(series, stored.minute)]),
    );
    return { minute: stored.minute, rings, written: new Map(stored.tasks) };
  };

  const take = async () => {
    if (!await store.demanded()) return;
    // This pass's own: leadership lost meanwhile drops `kept` for the next one, not for it.
    const state = kept ??= await resume();
    const every = await source.listTasks();
    const tasks = every.slice(0, maxTasks);
    const known = tasks.filter((task) => state.rings.has(task));
    const fresh = tasks.filter((task) => !state.rings.has(task));
    // The minutes since the last pass, and those still counted into; the whole day past it.
    const since = Math.min(
      DAY_MINUTES,
      Math.max(0, Math.ceil((clock() - state.minute) / MINUTE)) + SETTLE_MINUTES + 1,
    );
    const [recent, whole] = await Promise.all([
      known.length > 0 ? source.getThroughputByTask(known, { count: since }) : new Map(),
      fresh.length > 0 ? source.getThroughputByTask(fresh, { count: DAY_MINUTES }) : new Map(),
    ]);
    const asOf = clock();
    // The newest minute the source read (its clock names the minutes); the board's, with no task.
    let minute = state.minute;
    for (const read of [recent, whole]) {
      for (const [task, buckets] of read as Map<string, ThroughputBucket[]>) {
        const ring = state.rings.get(task) ?? new Uint32Array(2 * DAY_MINUTES);
        fill(ring, buckets);
        state.rings.set(task, ring);
        minute = Math.max(minute, buckets.at(-1)?.timestamp ?? minute);
      }
    }
    if (!Number.isFinite(minute)) minute = Math.floor(asOf / MINUTE) * MINUTE;
    const listed = new Set(tasks);
    const removed = [...state.rings.keys()].filter((task) => !listed.has(task));
    for (const task of removed) {
      state.rings.delete(task);
      state.written.delete(task);
    }
    const changed = new Map<string, string>();
    for (const [task, ring] of state.rings) {
      const series = encodeMinutes(minutesOf(ring, minute));
      if (state.written.get(task) !== series) changed.set(task, series);
    }
    // Past the cap the kept tasks are not all of them: no total, which is then read directly.
    const total = every.length <= maxTasks
      ? encodeMinutes(minutesOf(totalOf(state.rings.values()), minute))
      : null;
    await store.write({ asOf, minute, total, tasks: changed, removed });
    for (const [task, series] of changed) state.written.set(task, series);
    state.minute = minute;
    lastPass = timers.now();
  };

  const pass = () => {
    if (!leadership.isLeading) {
      // Another board keeps them: start again from what it wrote, should this one lead later.
      if (running === null) kept = null;
      return Promise.resolve();
    }
    // A slow pass is not stacked on: the next look runs one again.
    // Its minute's reads are the board's own: they keep no idle board watched.
    running ??= unwatched(take).catch(() => {}).finally(() => running = null);
    return running;
  };
  const id = timers.setInterval(() => {
    if (timers.now() - lastPass >= THROUGHPUT_PASS_MS - LOOK_MS / 2) void pass();
  }, LOOK_MS);
  timers.unref(id);
  return { pass, close: () => timers.clearInterval(id) };
}
