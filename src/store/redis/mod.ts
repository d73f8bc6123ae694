/**
 * The Redis {@link BoardStore}: the board's own keys under its root
 * (`taskora[:prefix]:board:*`, never inside a task's slot), each structure
 * bounded, shared by every board on the keyspace. It goes through a
 * {@link RedisConnection} (one Redis, a Cluster or a Sentinel set): the
 * Redis source's own, lent and never closed here, or one of its own
 * ({@link createRedisBoardStore}).
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
import { type RedisClientLike, RedisConnection } from "../../source/redis/client.ts";
import type { RedisClusterConfig, RedisSentinelConfig } from "../../source/redis/topology.ts";
import {
  addAlertSilence,
  listAlertRules,
  listAlertSilences,
  removeAlertRule,
  removeAlertSilence,
  saveAlertRule,
} from "./alert_settings.ts";
import {
  appendAlertHistory,
  listAlertHistory,
  readAlertStatus,
  readKnownShapes,
  writeAlertStates,
  writeKnownShapes,
} from "./alerts.ts";
import { appendAudit, listAudit, removeAudit } from "./audit.ts";
import { readBacklogSamples, writeBacklogSample } from "./backlog_samples.ts";
import { BoardRunLists, forgetBoardRuns, listBoardRuns, recordBoardRun } from "./board_runs.ts";
import { holdLease, leaseRemaining, releaseLease } from "./lease.ts";
import { RedisOperations } from "./operations.ts";
import { releaseScanSlot, renewScanSlot, takeScanSlot } from "./scan_slots.ts";
import {
  getSessionRevocations,
  keepSessionRevocations,
  revokeSessions,
  signOutSession,
} from "./session_revocations.ts";
import {
  listAsked,
  noteAsked,
  readSharedResult,
  removeSharedResult,
  shareResult,
} from "./shared_results.ts";
import type { ScanSlotAnswer, ScanSlotClaim } from "../scan_slot_rules.ts";
import type { SessionRevocations, SignedOutSession } from "../session_revocations.ts";
import type { BoardStore } from "../types.ts";
import type { HistoryLimits, HistoryStore } from "../../history/store.ts";
import { RedisFeedStore } from "./feed.ts";
import { createRedisHistoryStore } from "./history/store.ts";
import { RedisThroughputStore } from "./throughput.ts";

/** Options of {@link RedisBoardStore}. */
export interface RedisBoardStoreOptions {
  /** taskora's key prefix: the board's keys are `taskora:<prefix>:board:*`. */
  prefix?: string;
  /** The clock scan slots expire on and the feed's need is judged on, ms (default `Date.now`). */
  now?: () => number;
  /** Whether {@link RedisBoardStore.close} closes the connection (default false: it is lent). */
  ownsConnection?: boolean;
}

/** A {@link BoardStore} in Redis, beside taskora's keys. */
export class RedisBoardStore implements BoardStore {
  readonly shared = true;
  /** Bulk operations in the hash every board on the keyspace shares. */
  readonly operations: RedisOperations;
  /** The change feed's ids and the live state, under the board's root; see `feed.ts`. */
  readonly feed: RedisFeedStore;
  /** The day of throughput the leader keeps, under the board's root; see `throughput.ts`. */
  readonly keptThroughput: RedisThroughputStore;
  readonly #connection: RedisConnection;
  readonly #prefix?: string;
  readonly #now: () => number;
  readonly #ownsConnection: boolean;
  /** The schedules' runs as last read, and their version: reread when that changes. */
  readonly #boardRuns = new BoardRunLists();

  /** A store through `connection` (closed with it only when `options.ownsConnection`). */
  constructor(connection: RedisConnection, options: RedisBoardStoreOptions = {}) {
    this.#connection = connection;
    this.#prefix = options.prefix;
    this.#now = options.now ?? (() => Date.now());
    this.#ownsConnection = options.ownsConnection ?? false;
    this.operations = new RedisOperations(connection, options.prefix);
    this.feed = new RedisFeedStore(connection, options.prefix, this.#now);
    this.keptThroughput = new RedisThroughputStore(connection, options.prefix);
  }

  /** The connection, once it is ready. */
  async #ready(): Promise<RedisConnection> {
    await this.#connection.ready();
    return this.#connection;
  }

  /** Appends to the audit stream; see `audit.ts`. */
  async appendAudit(
    record: AuditRecord,
    maxEntries: number,
    log?: AuditLog,
    options?: AuditAppendOptions,
  ): Promise<AuditEntry> {
    return await appendAudit(await this.#ready(), record, maxEntries, this.#prefix, log, options);
  }

  /** Removes an entry of the audit stream. */
  async removeAudit(id: string, log?: AuditLog): Promise<void> {
    await removeAudit(await this.#ready(), id, this.#prefix, log);
  }

  /** A page of the audit stream, newest first. */
  async listAudit(query: AuditQuery, log?: AuditLog): Promise<AuditPage> {
    return await listAudit(await this.#ready(), query, this.#prefix, log);
  }

  /** The session revocations; see `session_revocations.ts`. */
  async getSessionRevocations(): Promise<SessionRevocations> {
    return await getSessionRevocations(await this.#ready(), this.#prefix);
  }

  /** Revokes sessions signed in before `at`: one user's, or everyone's when null. */
  async revokeSessions(user: string | null, at: number): Promise<void> {
    await revokeSessions(await this.#ready(), user, at, this.#prefix);
  }

  /** Signs one session out until its cookie expires. */
  async signOutSession(session: SignedOutSession, now: number): Promise<void> {
    await signOutSession(await this.#ready(), session, now, this.#prefix);
  }

  /** Gives the revocation table an id when Redis holds none; a lost one refuses those before. */
  async keepSessionRevocations(lostAt: number | null): Promise<string> {
    return await keepSessionRevocations(await this.#ready(), lostAt, this.#prefix);
  }

  /** Takes or renews a lease; see `lease.ts`. */
  async holdLease(name: string, holder: string, ttlMs: number): Promise<LeaseHold> {
    return await holdLease(await this.#ready(), name, holder, ttlMs, this.#prefix);
  }

  /** How long a lease runs on, ms; see `lease.ts`. */
  async leaseRemaining(name: string): Promise<number> {
    return await leaseRemaining(await this.#ready(), name, this.#prefix);
  }

  /** Gives a lease back when `holder` holds it. */
  async releaseLease(name: string, holder: string): Promise<void> {
    await releaseLease(await this.#ready(), name, holder, this.#prefix);
  }

  /** Shares a result; see `shared_results.ts`. */
  async shareResult(name: string, value: string, ttlMs: number): Promise<void> {
    await shareResult(await this.#ready(), name, value, ttlMs, this.#prefix);
  }

  /** The value last shared as `name`, or null. */
  async readSharedResult(name: string): Promise<string | null> {
    return await readSharedResult(await this.#ready(), name, this.#prefix);
  }

  /** Forgets the value shared as `name`. */
  async removeSharedResult(name: string): Promise<void> {
    await removeSharedResult(await this.#ready(), name, this.#prefix);
  }

  /** Notes `member` of `set` as asked now (the `max` asked last are kept). */
  async noteAsked(set: string, member: string, max: number): Promise<void> {
    await noteAsked(await this.#ready(), set, member, max, this.#prefix);
  }

  /** The members of `set` asked within `withinMs`, newest first. */
  async listAsked(set: string, withinMs: number): Promise<string[]> {
    return await listAsked(await this.#ready(), set, withinMs, this.#prefix);
  }

  /** Takes a scan slot every replica counts; see `scan_slots.ts`. */
  async takeScanSlot(claim: ScanSlotClaim): Promise<ScanSlotAnswer> {
    return await takeScanSlot(this.#connection, claim, this.#now(), this.#prefix);
  }

  /** Renews a held scan slot. */
  async renewScanSlot(claim: ScanSlotClaim): Promise<void> {
    await renewScanSlot(this.#connection, claim, this.#now(), this.#prefix);
  }

  /** Gives a scan slot back. */
  async releaseScanSlot(claim: ScanSlotClaim): Promise<void> {
    await releaseScanSlot(this.#connection, claim, this.#prefix);
  }

  /** The alert states the last evaluation left; see `alerts.ts`. */
  async readAlertStates(): Promise<AlertState[]> {
    return (await this.readAlertStatus()).states;
  }

  /** The alert states with when they were evaluated. */
  async readAlertStatus(): Promise<AlertStatus> {
    return await readAlertStatus(await this.#ready(), this.#prefix);
  }

  /** Replaces the alert states; given `ifAsOf`, only if no other wrote since. */
  async writeAlertStates(
    states: readonly AlertState[],
    asOf?: number,
    ifAsOf?: number | null,
    notes?: AlertPassNotes,
  ): Promise<boolean> {
    const status = { asOf: asOf ?? null, states, ...notes };
    return await writeAlertStates(await this.#ready(), status, ifAsOf, this.#prefix);
  }

  /** The error shapes the last alert leader kept (Redis expires them). */
  async readKnownShapes(_now: number): Promise<KnownShapesRecord | null> {
    return await readKnownShapes(await this.#ready(), this.#prefix);
  }

  /** Writes what the alert leader's pass changed in the error shapes. */
  async writeKnownShapes(change: KnownShapesChange, _now: number): Promise<number> {
    return await writeKnownShapes(await this.#ready(), change, this.#prefix);
  }

  /** Appends to the alert history, keeping the `max` newest. */
  async appendAlertHistory(entries: readonly AlertHistoryEntry[], max: number): Promise<void> {
    await appendAlertHistory(await this.#ready(), entries, max, this.#prefix);
  }

  /** The `limit` newest entries of the alert history. */
  async listAlertHistory(limit: number): Promise<AlertHistoryEntry[]> {
    return await listAlertHistory(await this.#ready(), limit, this.#prefix);
  }

  /** The rules made through the API; see `alert_settings.ts`. */
  async listAlertRules(): Promise<AlertRule[]> {
    return await listAlertRules(await this.#ready(), this.#prefix);
  }

  /** Stores a rule made through the API. */
  async saveAlertRule(
    rule: AlertRule,
    mode: "create" | "replace",
    max: number,
  ): Promise<RuleSaveOutcome> {
    return await saveAlertRule(await this.#ready(), rule, mode, max, this.#prefix);
  }

  /** Removes a stored rule. */
  async removeAlertRule(name: string): Promise<boolean> {
    return await removeAlertRule(await this.#ready(), name, this.#prefix);
  }

  /** The silences kept. */
  async listAlertSilences(): Promise<AlertSilence[]> {
    return await listAlertSilences(await this.#ready(), this.#prefix);
  }

  /** Adds a silence, dropping the ended ones. */
  async addAlertSilence(silence: AlertSilence, now: number, max: number): Promise<boolean> {
    return await addAlertSilence(await this.#ready(), silence, now, max, this.#prefix);
  }

  /** Removes a silence. */
  async removeAlertSilence(id: string): Promise<boolean> {
    return await removeAlertSilence(await this.#ready(), id, this.#prefix);
  }

  /** Notes a run the board dispatched; see `board_runs.ts`. */
  async recordBoardRun(name: string, run: BoardRunRecord, max: number): Promise<void> {
    await recordBoardRun(await this.#ready(), name, run, max, this.#prefix);
  }

  /** The runs of each named schedule, newest first (read again only once another is noted). */
  async listBoardRuns(
    names: readonly string[],
    limit: number,
  ): Promise<ReadonlyMap<string, readonly BoardRunRecord[]>> {
    return await listBoardRuns(await this.#ready(), names, limit, this.#boardRuns, this.#prefix);
  }

  /** Forgets a deleted schedule's runs. */
  async forgetBoardRuns(name: string): Promise<void> {
    await forgetBoardRuns(await this.#ready(), name, this.#prefix);
  }

  /** Keeps one minute's backlog samples; see `backlog_samples.ts`. */
  async writeBacklogSample(
    minute: number,
    samples: ReadonlyMap<string, BacklogSample>,
    keepMs: number,
  ): Promise<void> {
    await writeBacklogSample(this.#connection, minute, samples, keepMs, this.#prefix);
  }

  /** A task's samples in the named minutes. */
  async readBacklogSamples(
    task: string,
    minutes: readonly number[],
  ): Promise<(BacklogSample | null)[]> {
    return await readBacklogSamples(this.#connection, task, minutes, this.#prefix);
  }

  /** The job history under the board's root, through this store's connection; see `history/`. */
  history(limits: Partial<HistoryLimits>): HistoryStore {
    return createRedisHistoryStore({ connection: this.#connection, prefix: this.#prefix, limits });
  }

  /** Closes the connection when the store opened it; a lent one stays open. */
  async close(): Promise<void> {
    if (this.#ownsConnection) await this.#connection.close();
  }
}

/**
 * Options of {@link createRedisBoardStore}. Where Redis is: at most one of
 * `url`, `client`, `cluster` and `sentinel`.
 */
export interface RedisBoardStoreConnection {
  /** Redis URL (default `redis://127.0.0.1:6379`). */
  url?: string;
  /** A node-redis v5 client of yours: connected if it is not yet, never closed by the store. */
  client?: RedisClientLike;
  /** A Redis Cluster: some of its nodes. */
  cluster?: RedisClusterConfig;
  /** A Sentinel set: the master's name and some sentinels. */
  sentinel?: RedisSentinelConfig;
  /** taskora's key prefix: the board's keys are `taskora:<prefix>:board:*`. */
  prefix?: string;
  /** Longest wait for Redis before a call fails with STORE_UNAVAILABLE, ms (default 2000). */
  commandTimeoutMs?: number;
}

/**
 * A Redis {@link BoardStore} on a connection of its own, closed with it:
 * for a `TaskSource` of one's own whose boards share their state in Redis
 * (`createBoard(source, { store })`).
 *
 * @example
 * ```ts ignore
 * // Not run as a test: it needs a Redis.
 * const store = createRedisBoardStore({ url: "redis://127.0.0.1:6379" });
 * const board = createBoard(mySource, { store });
 * ```
 */
export function createRedisBoardStore(options: RedisBoardStoreConnection = {}): BoardStore {
  const { prefix, ...where } = options;
  return new RedisBoardStore(new RedisConnection(where), { prefix, ownsConnection: true });
}
