/**
 * The live state the leader keeps from the change feed (see
 * `change_feed.ts`), for every reader on every replica (see
 * `live_read.ts`): per task its counts and queue heads, its last hour of
 * rate, when a worker last took one of its jobs, the re-runs taskora's
 * stall check made in the last 15 min, and its verdict.
 *
 * Cost follows change, not the number of tasks:
 * - a pass (every second while the feed runs) re-reads the counts, heads
 *   and minutes only of the tasks that moved (had events) since the last
 *   read, of tasks new to it, and of those the sweep found drifted; of a
 *   task that moved, the job waiting longest only when an event may have
 *   changed it, and its active jobs' locks at most every
 *   {@link LOCKS_READ_EVERY_MS}. The
 *   sweep heals what changes without an event (taskora's retention trims the
 *   finished sets, jobs expire, keys are deleted): it checks a slice of the
 *   tasks each pass, their eight counts only (one script, 9 commands as
 *   Redis counts them, against about 25 for a whole read), and re-reads a
 *   task whose counts differ from its row. It checks every task once per
 *   {@link sweepPeriodMs}: `sweepMs` (60 s), or longer when that would cost
 *   more than `sweepCommandsPerSecond` ({@link DEFAULT_SWEEP_COMMANDS_PER_SECOND}):
 *   at 1,000 tasks once per 75 min, about 2 commands/s where a whole read of
 *   every task once a minute cost about 400. A row's hour of minutes is
 *   moved on in memory between reads: a task without events finished
 *   nothing since;
 * - the last take and the re-runs come from the events themselves (`active`;
 *   `stalled` with `action` `recovered`): "no progress" never re-reads a
 *   stream. Only a task the state never held (a first start) is read once:
 *   its re-runs of the last 15 min and, when its jobs waited past the idle
 *   limit, its newest stream entries for the last take;
 * - a task that keeps moving is read again at most once per `rereadMs`
 *   (the board's: half its stats interval, see `board_feed.ts`): a pass
 *   leaves its events marked for a later one while its last read is
 *   younger, since no reader sees the state more often than once an
 *   interval (at the defaults a busy task is read every other pass: about
 *   half the commands). Its row then holds what that read saw, and the
 *   `asOf` the pass writes is the oldest read among the tasks whose events
 *   wait (else the pass's own time): a count is never staler than the
 *   `asOf` it is shown with. What this board changed itself, a task the
 *   sweep found drifted, a trimmed stream and a first read never wait. The
 *   feed saves no stream id past the events that wait (`unkept`): a new
 *   leader, or a start after a lapse, reads them again;
 * - a pass writes the rows that changed, the index when it changed, and the
 *   `asOf` always (one HSET): a quiet board of any size costs that and its
 *   sweep;
 * - a start (a need that lapsed and came back, a new leader) takes back the
 *   rows the store holds when they are recent enough (see
 *   {@link LiveStateKeeper.started}) and re-reads only the tasks that moved
 *   since: the feed resumes each task's stream from its saved id, never
 *   ahead of the rows (`change_feed.ts`), and its first pass waits until the
 *   resumed tail reached the end of every stream, so each entry written while
 *   no feed ran marks its task moved before the pass writes a new `asOf`.
 *   A stream trimmed past its saved id marks its task whole; a task new to
 *   discovery is read; what changed without an event meanwhile waits for the
 *   sweep, as it does while the feed runs.
 *
 * @module
 */

import { HEALTH_WINDOW_MINUTES, idleFor, taskHealth } from "../contract/health.ts";
import { RATE_MINUTES, taskRate } from "../contract/latency.ts";
import { RERUN_HEALTH_MINUTES, withReruns } from "../contract/rerun_health.ts";
import { withStalledJobs } from "../contract/stalled_health.ts";
import { JOB_STATES } from "../contract/states.ts";
import { healthCounts } from "../contract/task_list.ts";
import type { ThroughputBucket } from "../contract/throughput.ts";
import { totalsOf } from "../contract/totals.ts";
import { HEALTH_EVENT_DEPTH } from "../contract/workers.ts";
import type {
  EventBatch,
  KeptParts,
  QueueSnapshot,
  QueueStats,
  TaskSource,
} from "../source/types.ts";
import type { FeedPositions } from "../store/feed.ts";
import type { StalledCount } from "../contract/liveness.ts";
import { RERUN_ACTION, RERUN_EVENT } from "../source/wire/reruns.ts";
import type { FeedStore, LiveIndex, LiveIndexEntry, LiveRow } from "../store/feed.ts";
import type { FeedConsumer } from "./change_feed.ts";
import { runningOf, waitedPast } from "./health_reads.ts";
import { minutesAt, rateBuckets } from "./live_rate.ts";
import { COUNTED_STATES, TaskChanges } from "./task_changes.ts";

/** The re-runs a row keeps the time and job of (the newest), so a new leader counts on. */
export const RERUN_LOG_MAX = 100;

const RERUN_WINDOW_MS = RERUN_HEALTH_MINUTES * 60_000;

/** What {@link LiveStateKeeper} needs. */
export interface LiveStateOptions {
  /** Where the counts are read. */
  source: TaskSource;
  /** Where the live state is kept. */
  store: FeedStore;
  /** ms since the epoch: the `asOf` every board reads. */
  clock: () => number;
  /** The board's health limits. */
  health: { maxWaitMs: number; maxIdleMs: number };
  /** How long a full sweep of every task takes at the least, ms (default 60,000). */
  sweepMs?: number;
  /** Commands per second the sweep's checks may spend, on average (default {@link DEFAULT_SWEEP_COMMANDS_PER_SECOND}). */
  sweepCommandsPerSecond?: number;
  /**
   * How old a task's last read must be before a pass reads it again for the
   * events it had since, ms, with the last pass's own duration counted in
   * (default 0: at every pass). Meanwhile its events wait for a later pass
   * and the `asOf` stays at that read. Readers take the state while it is at
   * most their window old: the `asOf` a pass writes is then at most
   * `rereadMs` old, and ages until the next pass writes (a pass period and
   * that pass's duration), so `rereadMs` leaves room for those.
   */
  rereadMs?: number;
}

/**
 * How often a task that moves has its active jobs' locks read again, ms: a
 * lock that runs out writes no event, and reading the locks of up to 100
 * active jobs of each task that moved, every pass, was most of what a busy
 * task cost (an EXISTS a job a second).
 */
export const LOCKS_READ_EVERY_MS = 15_000;

/**
 * What the sweep's checks spend by default, commands per second: half of
 * the 4 the leader's background reads spend together, the retrying split's
 * reconcile the other half (`src/source/redis/retrying_reconcile.ts`). At 4
 * each, one open browser at 1,000 tasks cost 13.5 commands/s with nothing
 * moving (`tests/bench/open_browser.ts`; issue 35 wants 10).
 */
export const DEFAULT_SWEEP_COMMANDS_PER_SECOND = 2;

/** What one task's check costs, as Redis counts it: the counts script and its eight reads. */
export const SWEEP_CHECK_COMMANDS = 9;

/**
 * How long the sweep takes to check every one of `tasks` tasks, ms: at
 * least `sweepMs`, and long enough that the checks spend at most
 * `perSecond` commands a second.
 */
export function sweepPeriodMs(tasks: number, sweepMs: number, perSecond: number): number {
  return Math.max(sweepMs, (tasks * SWEEP_CHECK_COMMANDS * 1000) / perSecond);
}

/** Whether two counts hold the same jobs in every queue (the delayed set whole, however split). */
function sameQueues(a: QueueStats, b: QueueStats): boolean {
  return JOB_STATES.every((state) =>
    state === "delayed" || state === "retrying" || a[state] === b[state]
  ) && a.delayed + a.retrying === b.delayed + b.retrying;
}

/** What a pass keeps of the tasks it reads rather than read again. */
interface Keeping {
  /** What their queue snapshots keep. */
  snapshot: KeptParts;
  /** The tasks whose minutes are kept: no job of theirs finished. */
  minutes: ReadonlySet<string>;
  /** The tasks whose minutes' failures are kept: no job of theirs failed. */
  failures: ReadonlySet<string>;
}

/** What the keeper holds of one task between passes. */
interface Kept {
  snapshot: QueueSnapshot;
  minutes: ThroughputBucket[];
  retryingAsOf: number | null;
  readAt: number;
  /** Live locks among the newest active jobs, read when none was taken for too long. */
  running?: number;
}

/** The live state of one board's feed; see the module documentation. */
export class LiveStateKeeper implements FeedConsumer {
  readonly #options: LiveStateOptions;
  readonly #sweepMs: number;
  readonly #sweepPerSecond: number;
  readonly #rereadMs: number;
  /** Tasks with events since their last read, and what those can have changed. */
  #moved = new Map<string, TaskChanges>();
  /** When each task's active jobs' locks were last read. */
  #locksReadAt = new Map<string, number>();
  #kept = new Map<string, Kept>();
  /** When a worker last took a job of each task. */
  #takes = new Map<string, number>();
  /** Since when the state followed each task's takes (no take seen since: idle since then). */
  #coveredSince = new Map<string, number>();
  /** Each task's re-runs in the window: `<at>:<job>` → at (a batch seen twice counts once). */
  #reruns = new Map<string, Map<string, number>>();
  /** Tasks whose row a former leader left: no first-start read for them. */
  #inherited = new Set<string>();
  /**
   * Rows taken back whose moves since the feed has not caught up with yet
   * (no batch that reached the end of every stream taken): a pass before
   * then reads them whole. The feed's passes wait for it, so none does.
   */
  #uncaught = new Set<string>();
  /** The rows and index as last written. */
  #written = new Map<string, string>();
  #index: string | null = null;
  #startedAt = 0;
  #sweepCursor = 0;
  /** The part of a task the sweep owes since its last check (it checks whole ones). */
  #sweepOwed = 0;
  #lastPassAt: number | null = null;
  /** How long the last pass took, from its start to its write's end, on the clock. */
  #lastPassMs = 0;
  /** Whether this board changed the queue since the last pass began: the next leaves no task waiting. */
  #ownChange = false;
  /** The tasks whose events the last pass left waiting. */
  #unkept: ReadonlySet<string> = new Set();

  /** Creates the keeper; it holds nothing until the feed starts. */
  constructor(options: LiveStateOptions) {
    this.#options = options;
    this.#sweepMs = options.sweepMs ?? 60_000;
    this.#sweepPerSecond = options.sweepCommandsPerSecond ?? DEFAULT_SWEEP_COMMANDS_PER_SECOND;
    this.#rereadMs = options.rereadMs ?? 0;
  }

  /**
   * Takes over the rows a former leader (or this board's feed before its
   * need lapsed) wrote: their last takes and re-runs, and, when the state is
   * recent enough, the rows themselves, so that the first pass re-reads only
   * the tasks that moved since. Recent enough: its `asOf` at most one sweep
   * period ({@link sweepPeriodMs}) old, so that what changed without an
   * event while no feed ran (trims, expiries) waits no longer for the sweep
   * than drift does while the feed runs; older, every task is read whole.
   * Taken back only for a task the feed resumes from a saved id (`positions`:
   * absent, none), since only then does it learn what moved meanwhile.
   * True when it took a row back: the first pass waits for the resumed tail.
   */
  async started(positions?: FeedPositions): Promise<boolean> {
    const now = this.#options.clock();
    this.#startedAt = now;
    const summary = await this.#options.store.readLiveSummary().catch(() => null);
    if (summary === null) return false;
    const names = summary.index.tasks.map((task) => task.name);
    const rows = await this.#options.store.readLiveRows(names).catch(() => []);
    const period = sweepPeriodMs(names.length, this.#sweepMs, this.#sweepPerSecond);
    const recent = now - summary.asOf <= period;
    for (const row of rows) {
      if (row === null) continue;
      const { stalled } = row;
      if (recent && positions?.has(row.name) && stalled !== undefined) this.#takeBack(row, stalled);
      this.#inherited.add(row.name);
      if (row.lastTakenAt !== null) this.#takes.set(row.name, row.lastTakenAt);
      // The feed resumes from the saved ids, so the takes since then were all seen: the idle
      // clock goes on from where the former leader's started, not from its last read.
      this.#coveredSince.set(row.name, row.coveredSince);
      this.#reruns.set(row.name, new Map(row.rerunLog.map(([at, job]) => [`${at}:${job}`, at])));
    }
    return this.#uncaught.size > 0;
  }

  /** Keeps `row`'s reads as if this keeper had made them, until a pass finds it moved. */
  #takeBack(row: LiveRow, stalled: StalledCount | null): void {
    this.#uncaught.add(row.name);
    this.#kept.set(row.name, {
      snapshot: { stats: row.stats, heads: row.heads, stalled },
      minutes: rateBuckets(row.rate),
      retryingAsOf: row.retryingAsOf,
      readAt: row.readAt,
      running: row.running,
    });
    // Written already: the pass writes it again only when it changes.
    this.#written.set(row.name, JSON.stringify(row));
  }

  /**
   * Notes that this board changed the queue, `task` when named (a clean,
   * say, which taskora writes no event for): the next pass re-reads it
   * whole, and leaves no moved task waiting, so that the `asOf` it writes is
   * its own and the board's readers take its state (they take none written
   * before their board's last change, see `own_changes.ts`).
   */
  changed(task?: string): void {
    this.#ownChange = true;
    if (task !== undefined) this.#changesOf(task).all();
  }

  /** What `task`'s events since its last read can have changed (noted from here on). */
  #changesOf(task: string): TaskChanges {
    let changes = this.#moved.get(task);
    if (!changes) this.#moved.set(task, changes = new TaskChanges());
    return changes;
  }

  /** Notes which tasks moved, their takes and their re-runs. */
  take({ events, trimmed, caughtUp }: EventBatch): void {
    if (caughtUp) this.#uncaught.clear();
    // Entries trimmed before they were read: what they moved is not known.
    for (const task of trimmed) this.#changesOf(task).all();
    for (const { task, event, jobId, fields, at } of events) {
      this.#changesOf(task).note(event, jobId, this.#kept.get(task)?.snapshot.heads);
      if (event === "active") this.#takes.set(task, Math.max(at, this.#takes.get(task) ?? 0));
      else if (event === RERUN_EVENT && fields.action === RERUN_ACTION) {
        const log = this.#reruns.get(task) ?? new Map<string, number>();
        log.set(`${at}:${jobId}`, at);
        this.#reruns.set(task, log);
      }
    }
  }

  /** Forgets everything: the next start reads the store again. */
  stopped(): void {
    this.#moved.clear();
    this.#locksReadAt.clear();
    this.#kept.clear();
    this.#takes.clear();
    this.#coveredSince.clear();
    this.#reruns.clear();
    this.#inherited.clear();
    this.#uncaught.clear();
    this.#written.clear();
    this.#index = null;
    this.#lastPassAt = null;
    this.#lastPassMs = 0;
    this.#ownChange = false;
    this.#unkept = new Set();
    this.#sweepOwed = 0;
  }

  /**
   * Re-reads what moved (less the tasks whose events wait: read less than
   * `rereadMs` ago), what the sweep found drifted and any new task; writes
   * what changed.
   */
  async pass(): Promise<void> {
    const { source, store, clock } = this.#options;
    for (const task of this.#uncaught) this.#changesOf(task).all();
    this.#uncaught.clear();
    const ownChange = this.#ownChange;
    this.#ownChange = false;
    const tasks = await source.listTasks();
    const present = new Set(tasks);
    const removed = [...this.#kept.keys()].filter((task) => !present.has(task));
    for (const task of removed) this.#forget(task);
    const now = clock();
    const waiting = ownChange ? new Set<string>() : this.#waiting(now);
    this.#unkept = waiting;
    const moved = [...this.#moved.keys()].filter((task) => present.has(task) && !waiting.has(task));
    // Honest: no count is staler than this (the reads of the tasks whose events wait).
    const asOf = Math.min(now, ...[...waiting].map((task) => this.#kept.get(task)!.readAt));
    const checked = this.#sweep(tasks, now)
      .filter((task) => this.#kept.has(task) && !this.#moved.has(task));
    const drifted = await this.#drifted(checked, now);
    const toRead = [...moved, ...drifted];
    for (const task of tasks) if (!this.#kept.has(task)) toRead.push(task);
    const unique = [...new Set(toRead)];
    const kept = this.#keptParts(moved, new Set(drifted), now);
    // Events from here on mark their task for the next pass.
    for (const task of unique) this.#moved.delete(task);
    try {
      if (unique.length > 0) await this.#read(unique, now, kept);
    } catch (error) {
      // Not read: read whole at the next pass (the feed saves no id past them meanwhile).
      for (const task of unique) this.#changesOf(task).all();
      throw error;
    }
    const changed: LiveRow[] = [];
    const entries: LiveIndexEntry[] = [];
    for (const task of tasks) {
      const row = this.#rowOf(task, now);
      if (row === null) continue;
      entries.push({
        name: task,
        stats: row.stats,
        retryingAsOf: row.retryingAsOf,
        health: { status: row.health.status },
        latency: { oldestWaiting: row.heads.oldestWaiting },
      });
      const text = JSON.stringify(row);
      if (this.#written.get(task) !== text) {
        changed.push(row);
        this.#written.set(task, text);
      }
    }
    const index: LiveIndex = {
      tasks: entries,
      totals: totalsOf(entries.map((entry) => entry.stats)),
      healthCounts: healthCounts(entries),
    };
    const indexText = JSON.stringify(index);
    const indexChanged = indexText !== this.#index;
    try {
      await store.writeLiveState({
        asOf,
        index: indexChanged ? index : undefined,
        rows: changed,
        removed,
      });
      this.#index = indexText;
    } catch (error) {
      // Written again in full at the next pass.
      this.#written.clear();
      this.#index = null;
      throw error;
    } finally {
      this.#lastPassMs = clock() - now;
    }
  }

  /**
   * The tasks whose events the last pass left waiting: their rows do not
   * hold those yet, so the feed saves no id past them (a new leader reads
   * those events again, and the tasks with them).
   */
  unkept(): ReadonlySet<string> {
    return this.#unkept;
  }

  /**
   * The tasks that moved whose events wait for a later pass at `now`: those
   * read, whole or in part, less than `rereadMs` ago, the last pass's
   * duration counted in. The readers' window holds the `asOf` a pass writes
   * until the next pass has written; on a loaded machine, where a pass takes
   * long, the next write comes that much later, so no task waits once a
   * pass takes as long as `rereadMs` leaves beyond a pass period (at the
   * board's defaults, half a second): every task that moved is read at every
   * pass, as without `rereadMs`. A task to read whole (trimmed entries, this
   * board's change, an error) or not yet read never waits.
   */
  #waiting(now: number): Set<string> {
    const waiting = new Set<string>();
    for (const [task, changes] of this.#moved) {
      const kept = this.#kept.get(task);
      if (kept && !changes.whole && now - kept.readAt + this.#lastPassMs < this.#rereadMs) {
        waiting.add(task);
      }
    }
    return waiting;
  }

  /**
   * The tasks of the sweep due by `now`: as many, from where the last pass
   * stopped, as the time since it is of the sweep's period (every task once
   * per {@link sweepPeriodMs}).
   */
  #sweep(tasks: readonly string[], now: number): string[] {
    const since = this.#lastPassAt === null ? 0 : now - this.#lastPassAt;
    this.#lastPassAt = now;
    if (tasks.length === 0) return [];
    const period = sweepPeriodMs(tasks.length, this.#sweepMs, this.#sweepPerSecond);
    this.#sweepOwed = Math.min(tasks.length, this.#sweepOwed + tasks.length * since / period);
    const count = Math.floor(this.#sweepOwed);
    this.#sweepOwed -= count;
    const slice: string[] = [];
    for (let i = 0; i < count; i++) slice.push(tasks[(this.#sweepCursor + i) % tasks.length]);
    this.#sweepCursor = (this.#sweepCursor + count) % tasks.length;
    return slice;
  }

  /**
   * Of the tasks the sweep checks, those whose counts differ from what
   * their row holds (one count script each); the others' counts are
   * confirmed as of `now`. The split of the delayed set into delayed and
   * retrying is no drift: the source keeps it in memory, and its reconcile
   * counts a task without an event (before, each task it had counted since
   * its read was read whole again when the sweep came to it); the check's
   * split and its `retryingAsOf` are taken as they are.
   */
  async #drifted(tasks: readonly string[], now: number): Promise<string[]> {
    if (tasks.length === 0) return [];
    const { source } = this.#options;
    const counts = await source.getStats([...tasks]);
    const asOf = source.retryingAsOf([...tasks]);
    return tasks.filter((task) => {
      const kept = this.#kept.get(task)!;
      const read = counts.get(task);
      if (!read || !sameQueues(read, kept.snapshot.stats)) return true;
      kept.snapshot = { ...kept.snapshot, stats: read };
      kept.retryingAsOf = asOf.get(task) ?? null;
      kept.readAt = now;
      return false;
    });
  }

  /**
   * What a pass keeps of the tasks that moved rather than read again: the
   * counts, the heads and the minutes no event since their read can have
   * changed (see `task_changes.ts`), and the locks of their active jobs
   * read within {@link LOCKS_READ_EVERY_MS} (a lock runs out without an
   * event either way). A task the sweep found drifted is read whole.
   */
  #keptParts(moved: readonly string[], drifted: ReadonlySet<string>, now: number): Keeping {
    const partly = new Map<string, TaskChanges>();
    for (const task of moved) {
      const changes = this.#moved.get(task)!;
      if (this.#kept.has(task) && !drifted.has(task) && !changes.whole) partly.set(task, changes);
    }
    const keeping = (keeps: (changes: TaskChanges, task: string) => boolean) =>
      new Set([...partly].filter(([task, changes]) => keeps(changes, task)).map(([task]) => task));
    return {
      snapshot: {
        waiting: keeping((changes) => !changes.oldestWaiting),
        active: keeping((changes) => !changes.oldestActive),
        due: keeping((changes) => !changes.states.has("delayed")),
        locks: keeping((_, task) =>
          now - (this.#locksReadAt.get(task) ?? -Infinity) < LOCKS_READ_EVERY_MS
        ),
        counts: new Map(
          [...partly].map(([task, changes]) => [task, {
            stats: this.#kept.get(task)!.snapshot.stats,
            states: new Set(COUNTED_STATES.filter((state) => !changes.states.has(state))),
          }]),
        ),
      },
      minutes: keeping((changes) => !changes.finishes && !changes.failures),
      failures: keeping((changes) => !changes.failures),
    };
  }

  /**
   * Reads the counts, heads and minutes of `tasks` (less what `kept` keeps
   * from their last read), and what a first start needs of new ones.
   */
  async #read(tasks: string[], now: number, kept: Keeping): Promise<void> {
    const { source, health } = this.#options;
    const parts = kept.snapshot;
    const [snapshots, minutes] = await Promise.all([
      source.getQueueSnapshots(tasks, parts),
      source.getThroughputByTask(
        tasks.filter((task) => !kept.minutes.has(task)),
        { count: RATE_MINUTES },
        {
          failures: new Map(
            [...kept.failures].map((task) => [task, this.#kept.get(task)!.minutes]),
          ),
        },
      ),
    ]);
    const asOf = source.retryingAsOf(tasks);
    const first = tasks.filter((task) => !this.#kept.has(task) && !this.#inherited.has(task));
    for (const task of tasks) {
      const before = this.#kept.get(task);
      const read = snapshots.get(task)!;
      const { stats } = read;
      const heads = { ...read.heads };
      // A head kept is kept while its queue holds jobs (one emptied without an event holds none).
      if (before && parts.waiting?.has(task)) {
        heads.oldestWaiting = stats.waiting > 0 ? before.snapshot.heads.oldestWaiting : null;
      }
      if (before && parts.active?.has(task)) {
        heads.oldestActive = stats.active > 0 ? before.snapshot.heads.oldestActive : null;
      }
      if (before && parts.due?.has(task)) {
        heads.nextDue = stats.delayed + stats.retrying > 0 ? before.snapshot.heads.nextDue : null;
      }
      const snapshot = { stats, heads, stalled: read.stalled };
      if (before && parts.locks?.has(task)) snapshot.stalled = before.snapshot.stalled;
      else this.#locksReadAt.set(task, now);
      this.#kept.set(task, {
        snapshot,
        minutes: (kept.minutes.has(task) ? before?.minutes : minutes.get(task)) ?? [],
        retryingAsOf: asOf.get(task) ?? null,
        readAt: now,
      });
    }
    await this.#readFirst(first, now);
    // Busy or gone: the locks of tasks whose jobs none took for too long, read with their counts.
    const idle = (task: string) => {
      const { snapshot } = this.#kept.get(task)!;
      return snapshot.stats.active > 0 && (this.#idleMs(task, now) ?? 0) > health.maxIdleMs;
    };
    const stuck = tasks.filter((task) =>
      waitedPast(this.#kept.get(task)!.snapshot, now, health.maxIdleMs)
    );
    const running = await runningOf(source, stuck, idle);
    for (const task of tasks) this.#kept.get(task)!.running = running.get(task);
  }

  /**
   * A task the state never held: its re-runs of the window, and, when its
   * jobs waited past the idle limit, its newest entries for the last take.
   */
  async #readFirst(tasks: string[], now: number): Promise<void> {
    if (tasks.length === 0) return;
    const { source, health } = this.#options;
    const since = now - RERUN_WINDOW_MS;
    const waited = tasks.filter((task) =>
      waitedPast(this.#kept.get(task)!.snapshot, now, health.maxIdleMs)
    );
    const [reruns, activity] = await Promise.all([
      source.readStreams?.({ kind: "reruns", tasks, since }),
      waited.length > 0
        ? source.readStreams?.({ kind: "activity", tasks: waited, depth: HEALTH_EVENT_DEPTH })
        : undefined,
    ]);
    for (const task of tasks) {
      const count = reruns?.get(task) ?? 0;
      const log = this.#reruns.get(task) ?? new Map<string, number>();
      // Their times are not read: counted from now, they leave the window 15 min from now.
      for (let i = 0; i < count; i++) log.set(`${now}:first-${i}`, now);
      if (count > 0) this.#reruns.set(task, log);
      const seen = activity?.get(task);
      if (seen?.lastTakenAt != null) {
        this.#takes.set(task, Math.max(seen.lastTakenAt, this.#takes.get(task) ?? 0));
      }
      this.#coveredSince.set(task, seen?.coveredSince ?? this.#startedAt);
    }
  }

  /** How long none of the task's jobs was taken at `now`, as far as the feed saw. */
  #idleMs(task: string, now: number): number | null {
    return idleFor({
      lastTakenAt: this.#takes.get(task) ?? null,
      coveredSince: this.#coveredSinceOf(task),
    }, now);
  }

  /** Since when the state followed the task's takes (a row from before the field: this start). */
  #coveredSinceOf(task: string): number {
    return this.#coveredSince.get(task) ?? this.#startedAt;
  }

  /** The task's row at `now`, from what was last read; null before its first read. */
  #rowOf(task: string, now: number): LiveRow | null {
    const kept = this.#kept.get(task);
    if (!kept) return null;
    const { maxWaitMs, maxIdleMs } = this.#options.health;
    const { stats, heads, stalled } = kept.snapshot;
    const minutes = minutesAt(kept.minutes, now);
    const log = this.#reruns.get(task);
    for (const [key, at] of log ?? []) if (now - at > RERUN_WINDOW_MS) log!.delete(key);
    const reruns = log?.size ?? 0;
    const verdict = taskHealth(
      stats,
      minutes.slice(-HEALTH_WINDOW_MINUTES),
      heads,
      now,
      maxWaitMs,
      { ms: this.#idleMs(task, now), maxMs: maxIdleMs, running: kept.running },
    );
    return {
      name: task,
      stats,
      retryingAsOf: kept.retryingAsOf,
      heads,
      health: withReruns(withStalledJobs(verdict, stalled, stats.active), reruns),
      rate: taskRate(minutes),
      lastTakenAt: this.#takes.get(task) ?? null,
      reruns,
      rerunLog: [...log ?? []].slice(-RERUN_LOG_MAX).map((
        [key, at],
      ) => [at, key.slice(key.indexOf(":") + 1)]),
      readAt: kept.readAt,
      coveredSince: this.#coveredSinceOf(task),
      stalled,
      running: kept.running,
    };
  }

  #forget(task: string): void {
    this.#kept.delete(task);
    this.#moved.delete(task);
    this.#locksReadAt.delete(task);
    this.#takes.delete(task);
    this.#coveredSince.delete(task);
    this.#reruns.delete(task);
    this.#inherited.delete(task);
    this.#written.delete(task);
  }
}
