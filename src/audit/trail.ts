/**
 * The board's audit trail, kept in its `BoardStore`: the Redis streams every
 * replica shares, or the memory store's logs, bounded the same.
 *
 * The trail has two logs, each capped at about `maxEntries`: actions, and
 * refusals (a request that failed and changed nothing, see `isRefusal`), so
 * a flood of refusals never pushes an action out; each is trimmed by age
 * too, and the cap is a safety net far above what the age keeps. Refusals
 * are limited per client and in all, and mutations per user
 * (`client_limit.ts`), so no one floods a log. A request that changed
 * nothing (a dry run, a retry-all that found no job) leaves no entry. A mutation's entry is written
 * before it acts ({@link AuditTrail.begin}, `pending`), so none acts without
 * its entry; an action entry the store refuses later is kept and written
 * late (`late.ts`).
 *
 * @module
 */

import {
  AUDIT_DEFAULT_MAX_AGE_MS,
  type AuditAppendOptions,
  type AuditEntry,
  type AuditLog,
  type AuditPage,
  type AuditQuery,
  type AuditRecord,
  isRefusal,
} from "../contract/audit.ts";
import { BoardError, StoreUnavailableError } from "../errors.ts";
import type { AuditStore } from "../store/audit.ts";
import type { BoardStore } from "../store/types.ts";
import { LateWrites, type Schedule, scheduleTimer } from "./late.ts";
import { mergeAuditPages } from "./merge.ts";
import {
  ACTIONS_PER_MINUTE,
  ClientLimit,
  REFUSALS_PER_MINUTE,
  REFUSALS_PER_MINUTE_IN_ALL,
} from "./client_limit.ts";

/** The board's audit trail. */
export interface AuditTrail {
  /**
   * Records an entry in its log. A refusal is recorded within its client's
   * limit (`client`: the user or address it came from; the record's user
   * when absent). An action the store refuses is kept and written late.
   * Resolves to the entry, or null when it was not written now.
   */
  append(record: AuditRecord, client?: string): Promise<AuditEntry | null>;
  /**
   * Writes a mutation's entry before it acts (outcome `pending`); 503
   * `AUDIT_UNAVAILABLE` when the store refuses it (`STORE_UNAVAILABLE` when
   * it is out of reach), 429 `TOO_MANY_ATTEMPTS` past `client`'s
   * {@link ACTIONS_PER_MINUTE}: the mutation must not run.
   */
  begin(record: AuditRecord, client?: string): Promise<AuditEntry>;
  /** Records the outcome of a mutation {@link AuditTrail.begin} wrote, replacing its pending entry. */
  settle(pending: AuditEntry, record: AuditRecord, client?: string): Promise<void>;
  /** Removes the pending entry of a request that changed nothing and is not recorded (a no-op). */
  discard(pending: AuditEntry): Promise<void>;
  /** A page newest first: of both logs, or of actions only for outcome `ok` or `pending`. */
  list(query: AuditQuery): Promise<AuditPage>;
  /** Whether the trail is shared by every board on the store (false: this process only). */
  shared: boolean;
  /** About how many entries each log keeps at most. */
  maxEntries: number;
  /** How long an entry is kept, ms. */
  maxAgeMs: number;
  /** Entries waiting to be written late. */
  readonly late: number;
  /** Entries given up on, more having waited than the bound. */
  readonly lost: number;
  /** Stops retrying late entries. */
  close(): void;
}

/** Options of {@link createAuditTrail}, for tests. */
export interface AuditTrailOptions {
  /** The clock of the refusal limit and of in-process entries. */
  now?: () => number;
  /** Schedules the next attempt to write late entries. */
  schedule?: Schedule;
  /** How long entries are kept, ms (`AUDIT_DEFAULT_MAX_AGE_MS` when absent). */
  maxAgeMs?: number;
}

/**
 * Why a mutation is refused when its entry is not written: the store out of
 * reach (`STORE_UNAVAILABLE`, as for any call: an unconfirmed entry leaves
 * the mutation undone all the same), or refusing the write (`AUDIT_UNAVAILABLE`).
 */
function notBegun(cause: unknown): BoardError {
  if (
    cause instanceof BoardError &&
    (cause.code === "STORE_UNAVAILABLE" || cause.code === "OUTCOME_UNKNOWN")
  ) {
    return new StoreUnavailableError(
      "The store is unavailable: the audit entry was not written, and nothing was done",
      { cause },
    );
  }
  return new BoardError(
    "AUDIT_UNAVAILABLE",
    "The audit trail cannot be written (the store refused its entry): nothing was done",
    { cause },
  );
}

/** The trail kept in `store`, each log of at most about `maxEntries` entries. */
export function createAuditTrail(
  store: AuditStore & Pick<BoardStore, "shared">,
  maxEntries: number,
  options: AuditTrailOptions = {},
): AuditTrail {
  const logs = {
    append: store.appendAudit.bind(store),
    remove: store.removeAudit.bind(store),
    list: store.listAudit.bind(store),
  };
  const now = options.now ?? Date.now;
  const maxAgeMs = options.maxAgeMs ?? AUDIT_DEFAULT_MAX_AGE_MS;
  const refusals = new ClientLimit({
    perMinute: REFUSALS_PER_MINUTE,
    totalPerMinute: REFUSALS_PER_MINUTE_IN_ALL,
    now,
  });
  const mutations = new ClientLimit({ perMinute: ACTIONS_PER_MINUTE, now });
  const append = (record: AuditRecord, log: AuditLog, write: AuditAppendOptions = {}) =>
    logs.append(record, maxEntries, log, { ...write, maxAgeMs });
  const late = new LateWrites(async ({ record, log, replaces, key }) => {
    // The earlier attempt may have been applied unconfirmed: written once, by its key.
    await append({ ...record, at: now() }, log, { key, once: true });
    // Written: failing to remove its pending entry must not write it again.
    if (replaces !== undefined) await logs.remove(replaces, "actions").catch(() => {});
  }, options.schedule ?? scheduleTimer);
  // Mutations do not wait for their outcome's entry (see record.ts); a
  // read on this board waits for the last one it started, so it sees its own writes.
  let written: Promise<unknown> = Promise.resolve();
  const track = <T>(write: Promise<T>): Promise<T> => {
    written = write.catch(() => {});
    return write;
  };

  async function record(
    entry: AuditRecord,
    client: string,
    replaces?: string,
  ): Promise<AuditEntry | null> {
    const log: AuditLog = isRefusal(entry) ? "refusals" : "actions";
    let kept = entry;
    if (log === "refusals") {
      const turn = refusals.take(client);
      if (!turn.record) {
        if (replaces !== undefined) await logs.remove(replaces, "actions");
        return null;
      }
      if (turn.dropped > 0) kept = { ...entry, dropped: turn.dropped };
    }
    const key = crypto.randomUUID();
    let stored: AuditEntry;
    try {
      stored = await append(kept, log, { key });
    } catch (failure) {
      // A refusal changed nothing: it is not worth memory while the store is away.
      if (log === "refusals") throw failure;
      late.keep({ record: kept, log, replaces, key });
      return null;
    }
    // Written: a pending entry that cannot be removed now stays beside it, never the outcome twice.
    if (replaces !== undefined) await logs.remove(replaces, "actions");
    return stored;
  }

  return {
    append: (entry, client = entry.user) => track(record(entry, client)),
    async begin(entry, client = entry.user) {
      if (!mutations.take(client).record) {
        throw new BoardError(
          "TOO_MANY_ATTEMPTS",
          `More than ${ACTIONS_PER_MINUTE} changes in a minute from one user: wait a minute, ` +
            "or act on many jobs at once with a bulk action",
        );
      }
      try {
        return await append(
          { ...entry, outcome: "pending", count: null, code: null, detail: null },
          "actions",
        );
      } catch (failure) {
        throw notBegun(failure);
      }
    },
    async settle(pending, entry, client = entry.user) {
      await track(record(entry, client, pending.id));
    },
    discard: (pending) => track(logs.remove(pending.id, "actions")),
    async list(query) {
      await written;
      if (query.outcome === "ok" || query.outcome === "pending") {
        return await logs.list(query, "actions");
      }
      const pages = await Promise.all([logs.list(query, "actions"), logs.list(query, "refusals")]);
      return mergeAuditPages(pages, query.limit);
    },
    shared: store.shared,
    maxEntries,
    maxAgeMs,
    get late() {
      return late.size;
    },
    get lost() {
      return late.lost;
    },
    close: () => late.close(),
  };
}
