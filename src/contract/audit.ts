/**
 * The audit trail's wire types: one entry per mutation the board performed
 * (or refused), and a page of them, newest first. The API serves them as
 * they are stored; the UI's Activity page reads them.
 *
 * @module
 */

/**
 * Whether the mutation succeeded: `pending` while it runs (its entry is
 * written before it acts, and replaced by the outcome once answered; one
 * that stays pending is a mutation whose answer the board never recorded).
 */
export type AuditOutcome = "ok" | "error" | "pending";

/** The outcomes, for filters. */
export const AUDIT_OUTCOMES = ["ok", "error", "pending"] as const satisfies readonly AuditOutcome[];

/** What made a request, for filters: an agent's MCP tool call, or the API (and the UI on it). */
export const AUDIT_VIAS = ["api", "mcp"] as const satisfies readonly AuditQuery["via"][];

/**
 * The trail's two logs, each capped on its own: `actions` (what changed, or
 * may have) and `refusals` (requests turned away, which changed nothing), so
 * a flood of refusals never pushes an action out.
 */
export type AuditLog = "actions" | "refusals";

/** What the board records of one mutation, before the store gives it an id. */
export interface AuditRecord {
  /** When the answer was sent (ms); a store with its own clock (Redis) records its time instead. */
  at: number;
  /** Who: the session user, the auth hook's user, or `anonymous`. */
  user: string;
  /** What, e.g. `job.retry`, `task.clean`, `schedule.update` (see `src/audit/actions.ts`). */
  action: string;
  /** On what: the job id, task, schedule name, workflow id or error group (`*` for every task). */
  target: string;
  /** The task it concerned, when one. */
  task: string | null;
  /** How many jobs (or schedules, workflows) it changed, from the answer; null when unknown (failure). */
  count: number | null;
  /** `ok`, or `error` with {@link AuditRecord.code}. */
  outcome: AuditOutcome;
  /** The HTTP status of the answer. */
  status: number;
  /** The error code of a failure (`INVALID_STATE`, `READ_ONLY`…), else null. */
  code: string | null;
  /** The error message of a failure, redacted; else null. */
  detail: string | null;
  /**
   * Written late: when it happened (ms), the store being unreachable then;
   * {@link AuditRecord.at} is when it was written.
   */
  late?: number;
  /** Refusals of the same client not recorded since its last one (the per-client limit). */
  dropped?: number;
  /** `mcp` when an agent's tool call of `{basePath}/mcp` made the request; absent for the API. */
  via?: "mcp";
}

/**
 * How one append keeps its log bounded by age and writes a late entry once.
 * Every field is optional.
 */
export interface AuditAppendOptions {
  /**
   * Entries older than this (ms) before the new one are trimmed: the trail's
   * age bound, on the store's own clock (the new entry's time), so a board
   * whose clock runs ahead of the store's trims nothing early.
   */
  maxAgeMs?: number;
  /** The entry's own key (a random id the board gives each record), stored beside it. */
  key?: string;
  /**
   * With `key`: add the entry only when none of the log's newest 1,000
   * entries has the key, and answer that one otherwise. A late write sets
   * it: an earlier attempt the store applied without confirming (a write
   * pause, a reply past the timeout) must not leave the entry twice.
   */
  once?: boolean;
}

/**
 * Whether a record is a refusal, kept in the `refusals` log: it failed and
 * changed nothing. A failure that may have changed something (no answer in
 * time, an internal error, a bulk operation that failed midway) is an action.
 */
export function isRefusal(record: AuditRecord): boolean {
  if (record.outcome !== "error" || record.count !== null) return false;
  return record.status < 500 || NOTHING_DONE.includes(record.code ?? "");
}

/** The 5xx codes of a request refused before it acted. */
const NOTHING_DONE = [
  "STORE_UNAVAILABLE",
  "AUDIT_UNAVAILABLE",
  "MIGRATION_IN_PROGRESS",
  "INCOMPATIBLE_STORE",
];

/** A recorded entry: the record and its id in the trail (a stream id, `<ms>-<seq>`). */
export interface AuditEntry extends AuditRecord {
  /** The entry's id: ordered, and the cursor to read on from. */
  id: string;
}

/** Filters and the cursor of one read of the trail. */
export interface AuditQuery {
  /** Entries to return at most (the read also stops after scanning {@link AUDIT_SCAN_LIMIT}). */
  limit: number;
  /** Only entries older than this id (the previous page's `next`). */
  before?: string;
  /** Only entries at or after this time (ms). */
  from?: number;
  /** Only entries at or before this time (ms). */
  to?: number;
  /** Only this user's. */
  user?: string;
  /** Only this action's. */
  action?: string;
  /** Only those of this task. */
  task?: string;
  /** Only those with this outcome. */
  outcome?: AuditOutcome;
  /** Only those an agent's MCP tool call made (`mcp`), or only the others (`api`). */
  via?: "api" | "mcp";
}

/** One page of the trail, newest first. */
export interface AuditPage {
  /** The matching entries, newest first. */
  entries: AuditEntry[];
  /**
   * The cursor to pass as `before` for older entries, or null when the trail
   * (within `from`) is read to its end. A page may hold fewer than `limit`
   * entries and still have a `next`: the read stops after scanning
   * {@link AUDIT_SCAN_LIMIT} entries, so a rare filter costs bounded work per call.
   */
  next: string | null;
}

/** Most entries one read scans, matching or not. */
export const AUDIT_SCAN_LIMIT = 2_000;

/**
 * Default cap of each log's length (approximately, `MAXLEN ~`): a safety net
 * far above what the age bound keeps at a team's pace, so a flood must write
 * this many entries, each naming its user, before it pushes one out.
 */
export const AUDIT_DEFAULT_MAX_ENTRIES = 50_000;

/** Default age bound of the trail, ms: entries older are trimmed (`XTRIM MINID`). */
export const AUDIT_DEFAULT_MAX_AGE_MS = 30 * 24 * 3_600_000;

/** Whether an entry passes a query's filters (the cursor and time range aside). */
export function matchesAudit(entry: AuditRecord, query: AuditQuery): boolean {
  return (query.user === undefined || entry.user === query.user) &&
    (query.action === undefined || entry.action === query.action) &&
    (query.task === undefined || entry.task === query.task) &&
    (query.outcome === undefined || entry.outcome === query.outcome) &&
    (query.via === undefined || (entry.via ?? "api") === query.via);
}

/** The answer of `GET /audit`. */
export interface AuditResponse extends AuditPage {
  /** Whether every board on the store shares this trail (false: this board's process only). */
  shared: boolean;
  /** At most about how many entries each log keeps before the oldest go. */
  maxEntries: number;
  /** How long an entry is kept, ms. */
  maxAgeMs: number;
  /** Every action name, for filters. */
  actions: readonly string[];
}
