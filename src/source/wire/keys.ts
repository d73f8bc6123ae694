/**
 * Key names of taskora's Redis wire format (version 6).
 *
 * Every per-task key carries the task name as a Redis Cluster hash tag
 * (`{task}`), so all keys of one task live in one slot.
 *
 * @module
 */

import type { AuditLog } from "../../contract/audit.ts";

/** The wire-format versions this board reads. */
export const SUPPORTED_WIRE_VERSIONS = { min: 6, max: 6 } as const;

/** The root of every key: `taskora` or `taskora:<prefix>`. */
export function keyRoot(prefix?: string): string {
  return prefix ? `taskora:${prefix}` : "taskora";
}

/** Keys of one task. */
export interface TaskKeys {
  wait: string;
  prioritized: string;
  active: string;
  delayed: string;
  completed: string;
  failed: string;
  expired: string;
  cancelled: string;
  events: string;
  stalled: string;
  marker: string;
  cancelChannel: string;
  /** Prefix of job hashes: `<jobPrefix><id>`, `<jobPrefix><id>:logs`, `<jobPrefix><id>:lock`. */
  jobPrefix: string;
}

/** What every key of one task starts with: `<root>:{task}`, the hash tag naming its slot. */
function taskBase(task: string, prefix?: string): string {
  return `${keyRoot(prefix)}:{${task}}`;
}

/** Builds the keys of one task. */
export function taskKeys(task: string, prefix?: string): TaskKeys {
  const base = taskBase(task, prefix);
  return {
    wait: `${base}:wait`,
    prioritized: `${base}:prioritized`,
    active: `${base}:active`,
    delayed: `${base}:delayed`,
    completed: `${base}:completed`,
    failed: `${base}:failed`,
    expired: `${base}:expired`,
    cancelled: `${base}:cancelled`,
    events: `${base}:events`,
    stalled: `${base}:stalled`,
    marker: `${base}:marker`,
    cancelChannel: `${base}:cancel`,
    jobPrefix: `${base}:`,
  };
}

/** What every throughput counter of one task starts with: the kind and minute follow. */
export function metricPrefix(task: string, prefix?: string): string {
  return `${taskBase(task, prefix)}:metrics:`;
}

/** Key of a throughput counter: one per task, kind and minute. */
export function metricKey(
  task: string,
  kind: "completed" | "failed",
  bucket: number,
  prefix?: string,
): string {
  return `${metricPrefix(task, prefix)}${kind}:${bucket}`;
}

/** Keys shared by the whole keyspace. */
export function globalKeys(prefix?: string): {
  meta: string;
  schedules: string;
  schedulesNext: string;
  schedulesLock: string;
  migrationLock: string;
  migrationChannel: string;
} {
  const root = keyRoot(prefix);
  return {
    meta: `${root}:meta`,
    schedules: `${root}:schedules`,
    schedulesNext: `${root}:schedules:next`,
    schedulesLock: `${root}:schedules:lock`,
    // taskora's reserved migration keys (redis/keys.ts, buildMigrationKeys).
    migrationLock: `${root}:migration:lock`,
    migrationChannel: `${root}:migration:broadcast`,
  };
}

/**
 * Key of one log of the board's audit trail: a stream beside taskora's
 * keys, so every board replica on the keyspace reads and writes the same
 * trail; `<root>:board:audit` for actions, `<root>:board:audit:refusals`
 * for refusals. One key, one slot each.
 */
export function auditKey(prefix?: string, log: AuditLog = "actions"): string {
  return log === "actions"
    ? `${keyRoot(prefix)}:board:audit`
    : `${keyRoot(prefix)}:board:audit:${log}`;
}

/**
 * Key of the board's session revocations: a hash beside taskora's keys
 * (`*` → everyone's, `u:<user>` → one user's, in ms), read by every replica.
 */
export function sessionsKey(prefix?: string): string {
  return `${keyRoot(prefix)}:board:sessions`;
}

/**
 * Key of the scan slots every board replica shares: a sorted set beside
 * taskora's keys, each holder (`<kind>:<id>:<user>`) scored by its expiry
 * (ms); see `store/redis/scan_slots.ts`.
 */
export function scanSlotsKey(prefix?: string): string {
  return `${keyRoot(prefix)}:board:scans`;
}

/**
 * Key of the board's bulk operations: one hash beside taskora's keys
 * (records, cursors, leases, cancel flags; see `store/redis/operations.ts`), so
 * every script on them names one key, one slot.
 */
export function operationsKey(prefix?: string): string {
  return `${keyRoot(prefix)}:board:operations`;
}

/**
 * Keys of what board replicas share beside taskora's keys, one slot each:
 * a lease (`<root>:board:lease:<name>`, its holder's id with a TTL), a
 * result of the leader's background work (`<root>:board:shared:<name>`,
 * with a TTL), and what boards were asked for (`<root>:board:asked:<set>`,
 * a sorted set capped by its writers).
 */
export function boardKeys(prefix?: string): {
  lease(name: string): string;
  shared(name: string): string;
  asked(set: string): string;
} {
  const root = `${keyRoot(prefix)}:board`;
  return {
    lease: (name) => `${root}:lease:${name}`,
    shared: (name) => `${root}:shared:${name}`,
    asked: (set) => `${root}:asked:${set}`,
  };
}

/**
 * Keys of the alerts' memory beside taskora's keys, one slot each: the
 * evaluator's states (`<root>:board:alerts:states`, one JSON string the
 * leader replaces), the history of notices (`<root>:board:alerts:history`,
 * a list, newest first, trimmed at each append), the rules made through the
 * API (`:rules`, a hash name → JSON), the silences (`:silences`, a hash
 * id → JSON) and the error shapes `newErrorGroup` saw (`:shapes`, a hash
 * `<task>\0<shape>` → `<first>:<last>`, with `baselineAt`).
 */
export function alertKeys(
  prefix?: string,
): { states: string; history: string; rules: string; silences: string; shapes: string } {
  const root = `${keyRoot(prefix)}:board:alerts`;
  return {
    states: `${root}:states`,
    shapes: `${root}:shapes`,
    history: `${root}:history`,
    rules: `${root}:rules`,
    silences: `${root}:silences`,
  };
}

/**
 * Key of the list of runs the board dispatched for schedule `name` (the
 * board's own, under its root like `alertKeys`; taskora keeps only the last).
 */
export function boardRunsKey(name: string, prefix?: string): string {
  return `${keyRoot(prefix)}:board:schedule-runs:${name}`;
}

/**
 * Key of the board's run history's version: a random id set again at each
 * run noted or history forgotten, so a board reads the lists only when it
 * changed.
 */
export function boardRunsVersionKey(prefix?: string): string {
  return `${keyRoot(prefix)}:board:schedule-runs-version`;
}

/** Key of a workflow hash (its own hash tag: one slot per workflow). */
export function workflowKey(id: string, prefix?: string): string {
  return `${keyRoot(prefix)}:wf:{${id}}`;
}

/** What a key name says about itself. */
export type ParsedKey =
  | { kind: "task"; task: string; rest: string }
  | { kind: "workflow"; id: string }
  | { kind: "global"; name: string };

/**
 * Splits a key of the keyspace under `prefix` into its parts, or returns null
 * for a key that is not taskora's.
 */
export function parseKey(key: string, prefix?: string): ParsedKey | null {
  const root = `${keyRoot(prefix)}:`;
  if (!key.startsWith(root)) return null;
  const tail = key.slice(root.length);
  if (tail.startsWith("wf:{") && tail.endsWith("}")) {
    return { kind: "workflow", id: tail.slice(4, -1) };
  }
  if (tail.startsWith("{")) {
    const close = tail.indexOf("}:");
    if (close < 0) return null;
    return { kind: "task", task: tail.slice(1, close), rest: tail.slice(close + 2) };
  }
  return { kind: "global", name: tail };
}

/**
 * Key of the board's backlog sample of one minute (`<root>:board:backlog:<minute ms>`):
 * a hash task → jobs yet to finish, written once by the leader and expiring
 * after the longest forecast window (see `contract/forecast.ts`). One key, one slot.
 */
export function backlogKey(minute: number, prefix?: string): string {
  return `${keyRoot(prefix)}:board:backlog:${minute}`;
}
