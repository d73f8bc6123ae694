/**
 * The memory {@link BoardStore}: what the board keeps in its process, on a
 * clock, with the same bounds as the Redis store. The boards given one
 * memory store share it, as replicas share Redis; what it keeps goes with
 * the process.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createMemoryBoardStore } from "./mod.ts";
 *
 * let now = 1_000;
 * const store = createMemoryBoardStore({ now: () => now });
 * assert.deepEqual(await store.holdLease("board", "a", 100), { held: true, expiresInMs: 100 });
 * assert.equal((await store.holdLease("board", "b", 100)).held, false);
 * now += 100;
 * assert.equal((await store.holdLease("board", "b", 100)).held, true);
 * ```
 *
 * @module
 */

import type {
  AlertHistoryEntry,
  AlertPassNotes,
  AlertRule,
  AlertSilence,
  AlertState,
  AlertStatus,
  KnownShapesChange,
  KnownShapesRecord,
  RuleSaveOutcome,
} from "../../contract/alerts.ts";
import type {
  AuditAppendOptions,
  AuditEntry,
  AuditLog,
  AuditPage,
  AuditQuery,
  AuditRecord,
} from "../../contract/audit.ts";
import type { BacklogSample } from "../../contract/forecast.ts";
import type { BoardRunRecord } from "../../contract/schedules.ts";
import type { LeaseHold } from "../../leadership.ts";
import { AuditRing } from "./audit_ring.ts";
import { AlertMemory } from "./alert_memory.ts";
import { BacklogSamples } from "./backlog_samples.ts";
import { BoardRunMemory } from "./board_runs.ts";
import { SharedBoard } from "./shared_board.ts";
import { OperationTable } from "../operation_store.ts";
import { LocalScanSlots, type ScanSlotClaim } from "../scan_slot_rules.ts";
import {
  RevocationTable,
  type SessionRevocations,
  type SignedOutSession,
} from "../session_revocations.ts";
import type { BoardStore } from "../types.ts";
import type { HistoryLimits, HistoryStore } from "../../history/store.ts";
import { MemoryFeedStore } from "./feed.ts";
import { createMemoryHistoryStore } from "./history.ts";

/** Options of {@link createMemoryBoardStore}. */
export interface MemoryBoardStoreOptions {
  /** The clock leases, slots and samples expire on, ms (default `Date.now`). */
  now?: () => number;
  /**
   * Whether more than one board is given the store (default true): a board
   * closing then leaves its bulk operations to the others.
   */
  shared?: boolean;
  /**
   * Whether it keeps the change feed's state (default true): false for a
   * store whose boards read the queue directly (the App's public API gives
   * no event ids to resume from; a lone board over a source of one's own).
   */
  feed?: boolean;
}

/** The id the memory store's revocation table answers: it is never lost without the board. */
const MEMORY_TABLE = "memory";

/** A {@link BoardStore} in the process. */
export class MemoryBoardStore implements BoardStore {
  readonly shared: boolean;
  readonly operations: OperationTable = new OperationTable();
  /** The change feed's ids and the live state, shared by the boards on the store as on Redis. */
  readonly feed: MemoryFeedStore | null;
  /** No kept throughput: the boards read the counters, in the process already. */
  readonly keptThroughput = null;
  readonly #audit = { actions: new AuditRing(), refusals: new AuditRing() };
  readonly #revocations = new RevocationTable();
  readonly #leases: SharedBoard;
  readonly #scanSlots: LocalScanSlots;
  readonly #alerts = new AlertMemory();
  readonly #runs = new BoardRunMemory();
  readonly #backlog: BacklogSamples;

  /** A store on the clock `options.now`. */
  constructor(options: MemoryBoardStoreOptions = {}) {
    const now = options.now ?? (() => Date.now());
    this.shared = options.shared ?? true;
    this.#leases = new SharedBoard(now);
    this.#scanSlots = new LocalScanSlots(now);
    this.#backlog = new BacklogSamples(now);
    this.feed = options.feed === false ? null : new MemoryFeedStore(now);
  }

  /** Appends to a log of the audit trail; see `AuditRing`. */
  appendAudit(
    record: AuditRecord,
    maxEntries: number,
    log: AuditLog = "actions",
    options?: AuditAppendOptions,
  ): Promise<AuditEntry> {
    return Promise.resolve(this.#audit[log].append(record, maxEntries, options));
  }

  /** Removes an entry of a log. */
  removeAudit(id: string, log: AuditLog = "actions"): Promise<void> {
    return Promise.resolve(this.#audit[log].remove(id));
  }

  /** A page of a log, newest first. */
  listAudit(query: AuditQuery, log: AuditLog = "actions"): Promise<AuditPage> {
    return Promise.resolve(this.#audit[log].list(query));
  }

  /** The revocations (no `table`: it cannot be lost without the board). */
  getSessionRevocations(): Promise<SessionRevocations> {
    return Promise.resolve(this.#revocations.read());
  }

  /** Revokes `user`'s sessions (everyone's when null) signed in before `at`. */
  revokeSessions(user: string | null, at: number): Promise<void> {
    return Promise.resolve(this.#revocations.revoke(user, at));
  }

  /** Signs one session out until its cookie expires. */
  signOutSession(session: SignedOutSession, now: number): Promise<void> {
    return Promise.resolve(this.#revocations.signOut(session, now));
  }

  /** The table's one id. */
  keepSessionRevocations(_lostAt: number | null): Promise<string> {
    return Promise.resolve(MEMORY_TABLE);
  }

  /** Takes or renews a lease. */
  holdLease(name: string, holder: string, ttlMs: number): Promise<LeaseHold> {
    return Promise.resolve(this.#leases.holdLease(name, holder, ttlMs));
  }

  /** How long a lease runs on, ms (0 when nobody holds it). */
  leaseRemaining(name: string): Promise<number> {
    return Promise.resolve(this.#leases.leaseRemaining(name));
  }

  /** Gives a lease back when `holder` holds it. */
  releaseLease(name: string, holder: string): Promise<void> {
    return Promise.resolve(this.#leases.releaseLease(name, holder));
  }

  /** Shares a result for `ttlMs`. */
  shareResult(name: string, value: string, ttlMs: number): Promise<void> {
    return Promise.resolve(this.#leases.shareResult(name, value, ttlMs));
  }

  /** The value last shared as `name`, or null. */
  readSharedResult(name: string): Promise<string | null> {
    return Promise.resolve(this.#leases.readSharedResult(name));
  }

  /** Forgets the value shared as `name`. */
  removeSharedResult(name: string): Promise<void> {
    return Promise.resolve(this.#leases.removeSharedResult(name));
  }

  /** Notes `member` of `set` as asked now (the `max` asked last are kept). */
  noteAsked(set: string, member: string, max: number): Promise<void> {
    return Promise.resolve(this.#leases.noteAsked(set, member, max));
  }

  /** The members of `set` asked within `withinMs`, newest first. */
  listAsked(set: string, withinMs: number): Promise<string[]> {
    return Promise.resolve(this.#leases.listAsked(set, withinMs));
  }

  /** Takes a scan slot unless the rules refuse it. */
  takeScanSlot(claim: ScanSlotClaim) {
    return this.#scanSlots.takeScanSlot(claim);
  }

  /** Renews a held scan slot. */
  renewScanSlot(claim: ScanSlotClaim): Promise<void> {
    return this.#scanSlots.renewScanSlot(claim);
  }

  /** Gives a scan slot back. */
  releaseScanSlot(claim: ScanSlotClaim): Promise<void> {
    return this.#scanSlots.releaseScanSlot(claim);
  }

  /** The alert states the last evaluation left. */
  readAlertStates(): Promise<AlertState[]> {
    return Promise.resolve(this.#alerts.readStatus().states);
  }

  /** The alert states with when they were evaluated. */
  readAlertStatus(): Promise<AlertStatus> {
    return Promise.resolve(this.#alerts.readStatus());
  }

  /** Replaces the alert states; given `ifAsOf`, only if no other wrote since. */
  writeAlertStates(
    states: readonly AlertState[],
    asOf?: number,
    ifAsOf?: number | null,
    notes?: AlertPassNotes,
  ): Promise<boolean> {
    const status = { asOf: asOf ?? null, states, ...notes };
    return Promise.resolve().then(() => this.#alerts.writeStates(status, ifAsOf));
  }

  /** The error shapes kept, until they expire. */
  readKnownShapes(now: number): Promise<KnownShapesRecord | null> {
    return Promise.resolve(this.#alerts.readShapes(now));
  }

  /** Writes what a pass changed in the error shapes. */
  writeKnownShapes(change: KnownShapesChange, now: number): Promise<number> {
    return Promise.resolve().then(() => this.#alerts.writeShapes(change, now));
  }

  /** Appends to the alert history, keeping the `max` newest. */
  appendAlertHistory(entries: readonly AlertHistoryEntry[], max: number): Promise<void> {
    return Promise.resolve(this.#alerts.appendHistory(entries, max));
  }

  /** The `limit` newest entries of the alert history. */
  listAlertHistory(limit: number): Promise<AlertHistoryEntry[]> {
    return Promise.resolve(this.#alerts.listHistory(limit));
  }

  /** The rules made through the API. */
  listAlertRules(): Promise<AlertRule[]> {
    return Promise.resolve(this.#alerts.listRules());
  }

  /** Stores a rule made through the API. */
  saveAlertRule(
    rule: AlertRule,
    mode: "create" | "replace",
    max: number,
  ): Promise<RuleSaveOutcome> {
    return Promise.resolve(this.#alerts.saveRule(rule, mode, max));
  }

  /** Removes a stored rule. */
  removeAlertRule(name: string): Promise<boolean> {
    return Promise.resolve(this.#alerts.removeRule(name));
  }

  /** The silences kept. */
  listAlertSilences(): Promise<AlertSilence[]> {
    return Promise.resolve(this.#alerts.listSilences());
  }

  /** Adds a silence, dropping the ended ones. */
  addAlertSilence(silence: AlertSilence, now: number, max: number): Promise<boolean> {
    return Promise.resolve(this.#alerts.addSilence(silence, now, max));
  }

  /** Removes a silence. */
  removeAlertSilence(id: string): Promise<boolean> {
    return Promise.resolve(this.#alerts.removeSilence(id));
  }

  /** Notes a run the board dispatched, keeping the `max` newest. */
  recordBoardRun(name: string, run: BoardRunRecord, max: number): Promise<void> {
    return Promise.resolve(this.#runs.record(name, run, max));
  }

  /** The runs of each named schedule, newest first. */
  listBoardRuns(names: readonly string[], limit: number): Promise<Map<string, BoardRunRecord[]>> {
    return Promise.resolve(new Map(names.map((name) => [name, this.#runs.list(name, limit)])));
  }

  /** Forgets a deleted schedule's runs. */
  forgetBoardRuns(name: string): Promise<void> {
    return Promise.resolve(this.#runs.forget(name));
  }

  /** Keeps one minute's backlog samples for `keepMs`. */
  writeBacklogSample(
    minute: number,
    samples: ReadonlyMap<string, BacklogSample>,
    keepMs: number,
  ): Promise<void> {
    return Promise.resolve(this.#backlog.write(minute, samples, keepMs));
  }

  /** A task's samples in the named minutes. */
  readBacklogSamples(task: string, minutes: readonly number[]): Promise<(BacklogSample | null)[]> {
    return Promise.resolve(this.#backlog.read(task, minutes));
  }

  /** A job history in the process. */
  history(limits: Partial<HistoryLimits>): HistoryStore {
    return createMemoryHistoryStore({ limits });
  }

  /** Nothing to release: it holds no connection. */
  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** A memory {@link BoardStore}; see {@link MemoryBoardStoreOptions}. */
export function createMemoryBoardStore(options: MemoryBoardStoreOptions = {}): BoardStore {
  return new MemoryBoardStore(options);
}
