/**
 * The runs of each schedule, the board's and the scheduler's, beside
 * taskora's keys (see `boardRunsKey`): one list per schedule, newest first,
 * one entry per job (a run noted again, by another replica, replaces its
 * equal entry: the scheduler's are written from taskora's own fields, so
 * every replica writes the same bytes), trimmed at each append and expiring {@link BOARD_RUNS_TTL_MS} after the last (so a
 * schedule deleted by a worker, not through the board, leaves nothing for
 * good). What does not decode is left out, never answered as an error.
 * Each change sets the history's version (`boardRunsVersionKey`) to a new
 * id, so a board rereads the lists only when the version it read them at
 * is no longer the stored one ({@link BoardRunLists}). The version lives as
 * long as the newest list: once none was written for that long, it is gone
 * and a board reads the lists (none left) again.
 *
 * @module
 */

import type { BoardRunRecord } from "../../contract/schedules.ts";
import { boardRunsKey, boardRunsVersionKey } from "../../source/wire/keys.ts";
import type { RedisConnection } from "../../source/redis/client.ts";
import { sameItems } from "../../same_items.ts";

/** How long a schedule's list outlives its newest run: 30 days. */
export const BOARD_RUNS_TTL_MS = 30 * 86_400_000;

function isRun(value: unknown): value is Omit<BoardRunRecord, "by"> & { by?: unknown } {
  if (value === null || typeof value !== "object") return false;
  const run = value as Record<string, unknown>;
  return typeof run.jobId === "string" && typeof run.at === "number";
}

function decoded(text: string): BoardRunRecord | null {
  try {
    const value: unknown = JSON.parse(text);
    if (!isRun(value)) return null;
    // Lists written before the scheduler's runs were noted hold the board's alone.
    const by = value.by === "scheduler" ? "scheduler" : "board";
    return { jobId: value.jobId, at: value.at, by };
  } catch {
    return null;
  }
}

/** The stored bytes of a run: the same for the same run, whichever replica writes it. */
function encoded(run: BoardRunRecord): string {
  return JSON.stringify({ jobId: run.jobId, at: run.at, by: run.by });
}

/** The command that marks the history changed: a new version id, living as long as a list. */
function newVersion(prefix?: string): string[] {
  const key = boardRunsVersionKey(prefix);
  return ["SET", key, crypto.randomUUID(), "PX", String(BOARD_RUNS_TTL_MS)];
}

/**
 * Notes a run, keeping the `max` newest: one pipeline of LREM (the same
 * run noted before), LPUSH, LTRIM, PEXPIRE, and the new version (after the
 * list: a board that reads the new version reads the new run).
 */
export async function recordBoardRun(
  connection: RedisConnection,
  name: string,
  run: BoardRunRecord,
  max: number,
  prefix?: string,
): Promise<void> {
  const key = boardRunsKey(name, prefix);
  await written(connection, prefix, [
    ["LREM", key, "0", encoded(run)],
    ["LPUSH", key, encoded(run)],
    ["LTRIM", key, "0", String(max - 1)],
    ["PEXPIRE", key, String(BOARD_RUNS_TTL_MS)],
    newVersion(prefix),
  ]);
}

/**
 * Sends `commands` (ending with a new version), then forgets the tracked
 * read of the version: this board's next list reads the lists again, not
 * waiting for Redis's invalidation. Also when it failed: an unanswered
 * write may have been made.
 */
async function written(
  connection: RedisConnection,
  prefix: string | undefined,
  commands: readonly (readonly string[])[],
): Promise<void> {
  try {
    await connection.pipeline(commands);
  } finally {
    connection.forgetTracked(boardRunsVersionKey(prefix));
  }
}

/**
 * The lists one store read, and the version it read them at: what it
 * answers while the stored version is the same. Holds the schedules last
 * asked for, at most `limit` runs each, and the last answer: asked again
 * for the same schedules and limit while the lists are the same, it is
 * answered again (the same map), so that what a caller built from it can be
 * known unchanged by identity.
 */
export class BoardRunLists {
  version: string | null = null;
  limit = 0;
  lists = new Map<string, BoardRunRecord[]>();
  answered: { names: readonly string[]; limit: number; runs: BoardRunsByName } | null = null;
}

/** Each named schedule's runs, newest first: shared with the next caller, so read only. */
export type BoardRunsByName = ReadonlyMap<string, readonly BoardRunRecord[]>;

/**
 * The `limit` newest runs of each named schedule, newest first: one GET of
 * the version (tracked: from the cache while unchanged, no round trip);
 * while it is the one `kept` was read at, the lists `kept`
 * holds, else one pipeline of LRANGE (kept for next time).
 */
export async function listBoardRuns(
  connection: RedisConnection,
  names: readonly string[],
  limit: number,
  kept: BoardRunLists,
  prefix?: string,
): Promise<BoardRunsByName> {
  // Tracked: no round trip until a run is noted (by this board: forgotten at once, {@link written}).
  const version = await connection.trackedRead(["GET", boardRunsVersionKey(prefix)]) as
    | string
    | null;
  const fresh = version === kept.version && limit <= kept.limit &&
    names.every((name) => kept.lists.has(name));
  if (!fresh) {
    const lists = await connection.pipeline(
      names.map((name) => ["LRANGE", boardRunsKey(name, prefix), "0", String(limit - 1)]),
    ) as string[][];
    kept.version = version;
    kept.limit = limit;
    kept.lists = new Map(
      names.map((name, i) => [name, lists[i].map(decoded).filter((run) => run !== null)]),
    );
    kept.answered = null;
  }
  const last = kept.answered;
  if (last !== null && last.limit === limit && sameItems(last.names, names)) return last.runs;
  const runs = new Map(names.map((name) => [name, kept.lists.get(name)!.slice(0, limit)]));
  kept.answered = { names: [...names], limit, runs };
  return runs;
}

/** Forgets a deleted schedule's runs: one pipeline of DEL and the new version. */
export async function forgetBoardRuns(
  connection: RedisConnection,
  name: string,
  prefix?: string,
): Promise<void> {
  await written(connection, prefix, [["DEL", boardRunsKey(name, prefix)], newVersion(prefix)]);
}
