/**
 * The bulk operations of every board on one store: each runs server-side as
 * a loop of steps ({@link runStep}), on whichever replica started it, and
 * lives in the store ({@link OperationStore}: the Redis source's hash, the
 * memory source's table), so any replica lists, shows and cancels it.
 *
 * - After every step the runner saves the record and its cursor, fenced by
 *   its lease (renewed every {@link OperationsOptions.renewMs}): a runner
 *   that lost its lease stops without writing.
 * - A cancel sets a flag in the store; the runner reads it with its next
 *   save and stops before its next step; the cancelling request waits (at
 *   most `cancelWaitMs`) until the record says so.
 * - Every `sweepMs` the replica that leads (background work runs on one
 *   leader) sweeps once (one store command): it takes over an operation
 *   whose runner's lease ran out (a process killed, a board closed:
 *   `close()` gives its operations back) and goes on from its saved cursor;
 *   the audit trail records the takeover. So a dead runner's operation goes
 *   on within `leaseMs + sweepMs` (15 s by default), plus a lease period of
 *   the leadership when the runner led too. The others send nothing unless
 *   someone follows their event stream.
 * - Progress reaches this replica's event stream from its own runners at
 *   once and, while someone follows the stream, from other replicas' by
 *   reading the store every `followMs` while any of theirs runs. A replica
 *   that does not lead learns that one started from the live state's
 *   `operations` mark ({@link Operations.told}, read with each stats frame),
 *   else from its sweep.
 *
 * Bounds: at most `maxRunning` operations run at once in the store (checked
 * when one is created); finished ones are kept for `keepMs` and only the
 * `keep` newest.
 *
 * @module
 */

import type { BulkAction, BulkOperation, BulkSelector } from "../contract/bulk.ts";
import { BoardError } from "../errors.ts";
import type {
  OperationLimits,
  OperationSave,
  OperationStore,
  StoredOperation,
} from "../store/operation_store.ts";
import type { TaskSource } from "../source/types.ts";
import type { BoardStore } from "../store/types.ts";
import { systemTimers, type TimerId, type Timers } from "../timers.ts";
import type { MatchReader } from "./filter.ts";
import { type FilterSelection, isFilterSelection, type ParsedSelector } from "./selector.ts";
import { firstCursor, runStep, type StepContext } from "./step.ts";

/** Options of {@link Operations}. */
export interface OperationsOptions {
  /** Operations running at once in the store (default 2). */
  maxRunning?: number;
  /** Finished operations kept (default 20). */
  keep?: number;
  /** How long a finished operation is kept, ms (default one hour). */
  keepMs?: number;
  /** Shortest spacing of two progress reports of one operation, ms (default 200). */
  progressEveryMs?: number;
  /** How long a runner's lease lasts unless renewed, ms (default 10 s). */
  leaseMs?: number;
  /** How often a runner renews its lease, ms (default 3 s). */
  renewMs?: number;
  /** How often the replica looks for an operation to take over, ms (default 5 s). */
  sweepMs?: number;
  /** How often other replicas' operations are read while they run and someone follows, ms (default 250). */
  followMs?: number;
  /** Longest wait of a cancel for the runner to stop, ms (default 20 s). */
  cancelWaitMs?: number;
  /**
   * Whether this replica takes over operations whose runner died (default
   * true; a read-only board changes no job, so it takes none).
   */
  takeOver?: boolean;
  /**
   * Whether this replica leads the boards on the store now (default: always):
   * only the leader sweeps for operations to take over. Asked at each sweep,
   * so the sweep keeps this replica competing.
   */
  leads?: () => boolean;
  /** This replica's name (default {@link replicaId}). */
  replica?: string;
  /** The clock and timers it runs on (default the runtime's). */
  timers?: Timers;
}

/** What the runner needs of the board. */
export interface OperationHooks {
  /** The source the steps go to. */
  source: TaskSource;
  /** Where the operations are kept, and whether other boards share it. */
  store: Pick<BoardStore, "operations" | "shared">;
  /** Reads a stored selection as a request's is read (a taken-over operation's). */
  parse(selector: BulkSelector, action: BulkAction): ParsedSelector;
  /** The reader of a filter selection's matches. */
  matches(selector: FilterSelection): MatchReader;
  /** Called with an operation after a step (spaced), and when it ends. */
  onProgress(operation: BulkOperation): void;
  /** Called once when an operation has ended, on the replica that ended it. */
  onFinish(operation: BulkOperation): void;
  /** Called when this replica takes over an operation from `from`. */
  onTakeover(operation: BulkOperation, from: string | null): void;
  /** Whether anyone follows progress here now: only then are other replicas' operations read. */
  following(): boolean;
  /**
   * Tells every replica that an operation started here (the live state's
   * `operations` mark, `../store/feed.ts`), so that one that does not lead
   * reads the store when one starts, not at each sweep.
   */
  onStart(): void;
}

/** What to run. */
export interface OperationSpec {
  action: BulkAction;
  selector: ParsedSelector;
  /**
   * The jobs it means to act on (the count taken when it starts); for a
   * filter, the jobs of the range it scans.
   */
  total: number;
  /** Reads a filter selection's matches (a filter selection only). */
  matches?: MatchReader;
  /** Who started it. */
  user: string;
  /** A cancel's reason. */
  reason?: string;
}

/**
 * The host's name, asked without a permission prompt: the CLI runs without
 * `--allow-sys`, so then `HOSTNAME` (a container's, a pod's name) if it may
 * be read, else `localhost`.
 */
function hostName(): string {
  if (Deno.permissions.querySync({ name: "sys", kind: "hostname" }).state === "granted") {
    return Deno.hostname();
  }
  const env = Deno.permissions.querySync({ name: "env", variable: "HOSTNAME" }).state;
  return (env === "granted" ? Deno.env.get("HOSTNAME") : undefined) ?? "localhost";
}

/**
 * A name for this process among the board's replicas: its host, its process
 * id, and 4 random hex digits (two boards in one process differ).
 */
export function replicaId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(2));
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${hostName()}:${Deno.pid}:${hex}`;
}

/** The selection as a request gave it, to store (a filter keeps its query). */
function storedSelector(selector: ParsedSelector): BulkSelector {
  if ("ids" in selector) return { task: selector.task, ids: selector.ids };
  if (isFilterSelection(selector)) {
    return { task: selector.task, state: selector.state, filter: selector.query };
  }
  return { task: selector.task, state: selector.state };
}

function snapshot(operation: BulkOperation): BulkOperation {
  return { ...operation, skippedJobs: [...operation.skippedJobs] };
}

/** What a change of a followed operation is judged by. */
function progressOf(operation: BulkOperation): string {
  const { status, done, skipped, scanned, runner } = operation;
  return JSON.stringify([status, done, skipped, scanned, runner]);
}

/** An operation this replica runs. */
interface Run {
  operation: BulkOperation;
  /** Stop after the current step, as cancelled. */
  cancelled: boolean;
  /** Stop after the current step and give the operation back. */
  closing: boolean;
  ended: Promise<void>;
}

/** The bulk operations of a board, kept in its store and run by whichever replica holds them. */
export class Operations {
  readonly #hooks: OperationHooks;
  readonly #store: OperationStore;
  /** Whether other replicas may share the store (else `close()` cancels what runs). */
  readonly #shared: boolean;
  readonly #limits: OperationLimits;
  readonly #progressEveryMs: number;
  readonly #leaseMs: number;
  readonly #renewMs: number;
  readonly #followMs: number;
  readonly #cancelWaitMs: number;
  readonly #sweepMs: number;
  readonly #timers: Timers;
  /** The wall clock when the fake timers read 0 (see `#now`). */
  readonly #epoch: number;
  readonly #runs = new Map<string, Run>();
  /** Ended here, but the store did not take the end yet (kept until it does). */
  readonly #unsaved = new Map<string, BulkOperation>();
  /** Other replicas' operations as last followed. */
  #followed = new Map<string, string>();
  #following: TimerId | null = null;
  /** While following: operations that ended from then on are reported. */
  #followSince: number | null = null;
  /** The `operations` mark last told, and when (own clock); null before any. */
  #told: { mark: string | null; at: number } | null = null;
  readonly #sweeper: TimerId;
  readonly #takeOver: boolean;
  readonly #leads: () => boolean;
  #closed = false;
  /** This replica's name, as operations it runs show it. */
  readonly replica: string;

  /** Starts sweeping the operations of `hooks.store`. */
  constructor(hooks: OperationHooks, options: OperationsOptions = {}) {
    this.#hooks = hooks;
    this.#shared = hooks.store.shared;
    this.#store = hooks.store.operations;
    this.#limits = {
      maxRunning: options.maxRunning ?? 2,
      keep: options.keep ?? 20,
      keepMs: options.keepMs ?? 3_600_000,
    };
    this.#progressEveryMs = options.progressEveryMs ?? 200;
    this.#leaseMs = options.leaseMs ?? 10_000;
    this.#renewMs = options.renewMs ?? 3_000;
    this.#followMs = options.followMs ?? 250;
    this.#cancelWaitMs = options.cancelWaitMs ?? 20_000;
    this.#timers = options.timers ?? systemTimers;
    this.#epoch = Date.now() - this.#timers.now();
    this.replica = options.replica ?? replicaId();
    this.#takeOver = options.takeOver ?? true;
    this.#leads = options.leads ?? (() => true);
    this.#sweepMs = options.sweepMs ?? 5_000;
    this.#sweeper = this.#timers.setInterval(() => void this.sweep(), this.#sweepMs);
    this.#timers.unref(this.#sweeper);
  }

  /**
   * The wall clock leases and times are read on: the runtime's own, or, on
   * a test's fake timers, the time the board was made moved by them.
   */
  #now(): number {
    if (this.#timers === systemTimers) return Date.now();
    return Math.floor(this.#epoch + this.#timers.now());
  }

  /**
   * Starts an operation and returns it as it starts; `INVALID_STATE` when
   * `maxRunning` already run in the store.
   */
  async start(spec: OperationSpec): Promise<BulkOperation> {
    const { selector } = spec;
    const filtered = isFilterSelection(selector);
    const now = this.#now();
    const operation: BulkOperation = {
      id: crypto.randomUUID(),
      task: selector.task,
      action: spec.action,
      selection: "ids" in selector
        ? { ids: selector.ids.length }
        : filtered
        ? { state: selector.state, filter: selector.query }
        : { state: selector.state },
      user: spec.user,
      runner: this.replica,
      status: "running",
      total: spec.total,
      scanned: filtered ? 0 : null,
      done: 0,
      skipped: 0,
      skippedJobs: [],
      signalled: 0,
      startedAt: now,
      finishedAt: null,
      error: null,
      errorCode: null,
    };
    const stored: StoredOperation = {
      operation,
      selector: storedSelector(selector),
      reason: spec.reason ?? null,
      cursor: firstCursor(selector, filtered),
      cancelRequested: false,
      leaseUntil: now + this.#leaseMs,
    };
    if (!await this.#store.create(stored, this.#limits, now)) {
      const { maxRunning } = this.#limits;
      throw new BoardError(
        "INVALID_STATE",
        `${maxRunning} bulk operations are running on this board's store (at most ${maxRunning}` +
          " at once, whichever replica runs them): wait for one to finish, or cancel it",
      );
    }
    this.#hooks.onStart();
    this.#run(stored, selector, spec.matches);
    return snapshot(operation);
  }

  /**
   * The `operations` mark as the live state holds it now (null: never
   * marked), read by this replica each stats interval: when it changed (or
   * on the first), another replica may have started one, so this replica
   * reads the store and follows what runs. While it is told, a sweep on a
   * replica that does not lead reads nothing: before, the sweep read the
   * store every 5 s on every replica someone watched (two commands).
   */
  told(mark: string | null): void {
    const last = this.#told;
    this.#told = { mark, at: this.#timers.now() };
    if (last !== null && last.mark === mark) return;
    this.#follow(this.#now() - this.#sweepMs - this.#leaseMs);
  }

  /** An operation (running, or finished and still kept), or null. */
  async get(id: string): Promise<BulkOperation | null> {
    const here = this.#runs.get(id)?.operation ?? this.#unsaved.get(id);
    if (here) return snapshot(here);
    const stored = await this.#store.get(id);
    if (!stored || !this.#kept(stored.operation)) return null;
    this.#followIfRunning([stored.operation]);
    return stored.operation;
  }

  /**
   * Asked about another replica's running operation: its progress is
   * followed from now on (if anyone follows here), not from the next sweep.
   */
  #followIfRunning(operations: readonly BulkOperation[]): void {
    if (operations.some((op) => op.status === "running" && !this.#runs.has(op.id))) {
      this.#follow(this.#now() - this.#sweepMs - this.#leaseMs);
    }
  }

  /** Every operation kept, newest first. */
  async list(): Promise<BulkOperation[]> {
    const stored = await this.#store.list();
    this.#followIfRunning(stored);
    const byId = new Map(stored.filter((op) => this.#kept(op)).map((op) => [op.id, op]));
    for (const { operation } of this.#runs.values()) byId.set(operation.id, snapshot(operation));
    return [...byId.values()].sort((a, b) => b.startedAt - a.startedAt);
  }

  /**
   * Asks a running operation to stop after its current step and waits until
   * it has (at most `cancelWaitMs`); null for an unknown id,
   * `INVALID_STATE` for a finished one.
   */
  async cancel(id: string): Promise<BulkOperation | null> {
    const flagged = await this.#store.cancel(id);
    if (!flagged || !this.#kept(flagged)) return null;
    if (flagged.status !== "running") {
      throw new BoardError(
        "INVALID_STATE",
        `Operation ${id} is ${flagged.status}; only a running operation can be cancelled`,
      );
    }
    const run = this.#runs.get(id);
    if (run) {
      run.cancelled = true;
      await run.ended;
      return snapshot(run.operation);
    }
    return await this.#stopped(id, this.#timers.now() + this.#cancelWaitMs) ?? flagged;
  }

  /**
   * Stops sweeping, and stops every operation this replica runs after its
   * current step: given back to the store for another replica to go on
   * with, or cancelled when no other replica can (a store of its own).
   */
  async close(): Promise<void> {
    this.#closed = true;
    this.#timers.clearInterval(this.#sweeper);
    this.#stopFollowing();
    for (const run of this.#runs.values()) {
      if (this.#shared) run.closing = true;
      else run.cancelled = true;
    }
    await Promise.all([...this.#runs.values()].map((run) => run.ended));
  }

  /**
   * One sweep: on the leader, takes over an operation whose runner's lease
   * ran out (unless {@link OperationsOptions.takeOver} is off), and follows
   * other replicas' operations while someone follows here. At most one
   * store command, none on a replica that neither leads nor has a follower;
   * failures are left to the next sweep.
   */
  async sweep(): Promise<void> {
    if (this.#closed) return;
    const takeOver = this.#takeOver && this.#leads();
    if (!takeOver && !this.#hooks.following()) return;
    // Told within three sweeps (a quiet board reads the live state every third stats poll): a
    // start shows in the mark, the rest in the following.
    const told = this.#told;
    if (!takeOver && told !== null && this.#timers.now() - told.at <= 3 * this.#sweepMs) return;
    const now = this.#now();
    try {
      const { running, claimed } = takeOver
        ? await this.#store.claim(this.replica, now, now + this.#leaseMs)
        : { running: await this.#runningElsewhere(), claimed: null };
      // Its own (a renewal came too late): the claim renewed the lease, and the run goes on.
      if (claimed && !this.#closed && !this.#runs.has(claimed.stored.operation.id)) {
        const { stored, from } = claimed;
        const { operation } = stored;
        this.#hooks.onTakeover(snapshot(operation), from);
        let selector: ParsedSelector;
        try {
          selector = this.#hooks.parse(stored.selector, operation.action);
        } catch (error) {
          // Options changed since (a redaction key): it cannot go on here as it was asked.
          await this.#end(stored, operation, error);
          return;
        }
        this.#run(stored, selector);
      }
      // Since the last sweep, give or take a lease: the boards' clocks may differ that much.
      if (running > this.#runs.size) this.#follow(now - this.#sweepMs - this.#leaseMs);
    } catch (error) {
      console.error("queue-board: the sweep of bulk operations failed", error);
    }
  }

  /** How many operations run in the store, read without taking any. */
  async #runningElsewhere(): Promise<number> {
    return (await this.#store.list()).filter((op) => op.status === "running").length;
  }

  #kept(operation: BulkOperation): boolean {
    return operation.finishedAt === null ||
      this.#now() - operation.finishedAt <= this.#limits.keepMs;
  }

  /** Reads operation `id` until it is no longer running, or `deadline` passes. */
  async #stopped(id: string, deadline: number): Promise<BulkOperation | null> {
    for (;;) {
      const stored = await this.#store.get(id);
      if (!stored || stored.operation.status !== "running") return stored?.operation ?? null;
      if (this.#timers.now() >= deadline) return stored.operation;
      await new Promise<void>((resolve) => this.#timers.setTimeout(resolve, 100));
    }
  }

  /** Starts reading other replicas' operations every `followMs`, unless it does already. */
  /** `since`: operations that ended from then on are reported (the sweep that saw them run). */
  #follow(since: number): void {
    if (this.#following !== null || this.#closed || !this.#hooks.following()) return;
    this.#followSince ??= since;
    this.#following = this.#timers.setTimeout(() => void this.#followOnce(), this.#followMs);
    this.#timers.unref(this.#following);
  }

  #stopFollowing(): void {
    if (this.#following !== null) this.#timers.clearTimeout(this.#following);
    this.#following = null;
  }

  /** Reports other replicas' operations that moved, and goes on while any of them runs. */
  async #followOnce(): Promise<void> {
    this.#following = null;
    const since = this.#followSince ?? 0;
    let others = false;
    try {
      const seen = new Map<string, string>();
      for (const operation of await this.#store.list()) {
        if (this.#runs.has(operation.id)) continue;
        const now = progressOf(operation);
        seen.set(operation.id, now);
        const running = operation.status === "running";
        others ||= running;
        // A finished one is reported once, when it ended since the following began.
        const recent = running || (operation.finishedAt ?? 0) >= since;
        if (recent && this.#followed.get(operation.id) !== now) this.#hooks.onProgress(operation);
      }
      this.#followed = seen;
    } catch {
      // The store is away: the next sweep starts following again.
      this.#followSince = null;
      return;
    }
    if (others) this.#follow(since);
    else this.#followSince = null;
  }

  /** Runs a stored operation from its cursor on this replica. */
  #run(stored: StoredOperation, selector: ParsedSelector, matches?: MatchReader): void {
    const operation = snapshot(stored.operation);
    operation.runner = this.replica;
    const run: Run = {
      operation,
      cancelled: stored.cancelRequested,
      closing: false,
      ended: Promise.resolve(),
    };
    this.#runs.set(operation.id, run);
    const context: StepContext = {
      source: this.#hooks.source,
      action: operation.action,
      selector,
      reason: stored.reason,
      matches: matches ?? (isFilterSelection(selector) ? this.#hooks.matches(selector) : undefined),
    };
    run.ended = this.#loop(run, stored, context).finally(() => this.#runs.delete(operation.id));
  }

  async #loop(run: Run, stored: StoredOperation, context: StepContext): Promise<void> {
    const { operation } = run;
    let cursor = stored.cursor;
    let lost = false;
    const save = async (leaseUntil: number, progress: boolean) => {
      const lease = await this.#store.save(operation.id, {
        runner: this.replica,
        leaseUntil,
        progress: progress ? { operation: snapshot(operation), cursor } : null,
        limits: this.#limits,
        now: this.#now(),
      });
      if (!lease.held) lost = true;
      if (lease.cancelRequested) run.cancelled = true;
    };
    const renew = this.#timers.setInterval(() => {
      save(this.#now() + this.#leaseMs, false).catch(() => {
        // Unrenewed, it runs out: another replica may take over, and the next save says so.
      });
    }, this.#renewMs);
    this.#timers.unref(renew);
    let reportedAt = -Infinity;
    try {
      while (!run.cancelled) {
        if (run.closing) {
          // Given back as it stands: another replica goes on from the cursor.
          await save(0, true);
          return;
        }
        const next = await runStep(context, operation, cursor);
        if (next === null) break;
        cursor = next;
        await save(this.#now() + this.#leaseMs, true);
        if (lost) return;
        if (this.#timers.now() - reportedAt >= this.#progressEveryMs) {
          reportedAt = this.#timers.now();
          this.#hooks.onProgress(snapshot(operation));
        }
      }
      operation.status = run.cancelled ? "cancelled" : "done";
    } catch (error) {
      if (lost) return;
      this.#fail(operation, error);
    } finally {
      this.#timers.clearInterval(renew);
    }
    await this.#finish(operation, cursor);
  }

  #fail(operation: BulkOperation, error: unknown): void {
    operation.status = "failed";
    operation.error = error instanceof BoardError ? error.message : "Internal error";
    operation.errorCode = error instanceof BoardError ? error.code : "INTERNAL";
    if (!(error instanceof BoardError)) {
      console.error("queue-board: a bulk operation failed", error);
    }
  }

  /** Ends an operation taken over that cannot go on here. */
  async #end(stored: StoredOperation, operation: BulkOperation, error: unknown): Promise<void> {
    this.#fail(operation, error);
    await this.#finish({ ...operation, runner: this.replica }, stored.cursor);
  }

  /**
   * Saves the end (fenced: a replica that lost the operation writes
   * nothing), then reports it. When the store is away, the end is reported
   * anyway (the audit trail writes it late) and kept here until the store
   * takes it.
   */
  async #finish(operation: BulkOperation, cursor: StoredOperation["cursor"]): Promise<void> {
    operation.finishedAt = this.#now();
    const final = snapshot(operation);
    try {
      const lease = await this.#store.save(final.id, this.#ending(final, cursor));
      if (!lease.held) return;
    } catch {
      this.#unsaved.set(final.id, final);
      this.#saveLater(final, cursor);
    }
    this.#hooks.onProgress(final);
    this.#hooks.onFinish(final);
  }

  #ending(final: BulkOperation, cursor: StoredOperation["cursor"]): OperationSave {
    return {
      runner: this.replica,
      leaseUntil: 0,
      progress: { operation: final, cursor },
      limits: this.#limits,
      now: this.#now(),
    };
  }

  /** Saves an end the store refused, every `renewMs`, until it takes it or the board closes. */
  #saveLater(final: BulkOperation, cursor: StoredOperation["cursor"]): void {
    if (this.#closed) return;
    const retry = this.#timers.setTimeout(async () => {
      try {
        await this.#store.save(final.id, this.#ending(final, cursor));
        this.#unsaved.delete(final.id);
      } catch {
        this.#saveLater(final, cursor);
      }
    }, this.#renewMs);
    this.#timers.unref(retry);
  }
}
