/**
 * The runs the board dispatched per schedule, beside taskora's keys (see
 * `boardRunsKey`): one list per schedule, newest first, trimmed at each
 * append and expiring {@link BOARD_RUNS_TTL_MS} after the last (so a
 * schedule deleted by a worker, not through the board, leaves nothing for
 * good). What does not decode is left out, never answered as an error.
 *
 * @module
 */

import type { BoardRun, BoardRunRecord } from "../../contract/schedules.ts";
import type { BoardRunsOf } from "../types.ts";
import { boardRunsKey, taskKeys } from "../wire/keys.ts";
import type { RedisConnection } from "./client.ts";
import { asState } from "./schedules.ts";

/** How long a schedule's list outlives its newest run: 30 days. */
export const BOARD_RUNS_TTL_MS = 30 * 86_400_000;

function isRun(value: unknown): value is BoardRunRecord {
  if (value === null || typeof value !== "object") return false;
  const run = value as Record<string, unknown>;
  return typeof run.jobId === "string" && typeof run.at === "number";
}

function decoded(text: string): BoardRunRecord | null {
  try {
    const value: unknown = JSON.parse(text);
    return isRun(value) ? { jobId: value.jobId, at: value.at } : null;
  } catch {
    return null;
  }
}

/** Notes a run, keeping the `max` newest: one pipeline of LPUSH, LTRIM and PEXPIRE. */
export async function recordBoardRun(
  connection: RedisConnection,
  name: string,
  run: BoardRunRecord,
  max: number,
  prefix?: string,
): Promise<void> {
  const key = boardRunsKey(name, prefix);
  await connection.pipeline([
    ["LPUSH", key, JSON.stringify({ jobId: run.jobId, at: run.at })],
    ["LTRIM", key, "0", String(max - 1)],
    ["PEXPIRE", key, String(BOARD_RUNS_TTL_MS)],
  ]);
}

/**
 * The `limit` newest runs of each schedule with each job's state now: one
 * pipeline of LRANGE, then one of `HGET <job> state` (each in its task's
 * slot).
 */
export async function listBoardRuns(
  connection: RedisConnection,
  schedules: readonly BoardRunsOf[],
  limit: number,
  prefix?: string,
): Promise<Map<string, BoardRun[]>> {
  const records = await listBoardRunRecords(
    connection,
    schedules.map(({ name }) => name),
    limit,
    prefix,
  );
  const runs = schedules.map(({ name }) => records.get(name)!);
  const states = await connection.pipelineSettled(
    schedules.flatMap(({ task }, i) =>
      runs[i].map((run) => ["HGET", `${taskKeys(task, prefix).jobPrefix}${run.jobId}`, "state"])
    ),
  );
  let next = 0;
  return new Map(
    schedules.map(({ name }, i) => [
      name,
      runs[i].map((run) => ({ ...run, state: asState(states[next++]) })),
    ]),
  );
}

/** The `limit` newest runs of each named schedule, newest first: one pipeline of LRANGE. */
export async function listBoardRunRecords(
  connection: RedisConnection,
  names: readonly string[],
  limit: number,
  prefix?: string,
): Promise<Map<string, BoardRunRecord[]>> {
  const lists = await connection.pipeline(
    names.map((name) => ["LRANGE", boardRunsKey(name, prefix), "0", String(limit - 1)]),
  ) as string[][];
  return new Map(
    names.map((name, i) => [name, lists[i].map(decoded).filter((run) => run !== null)]),
  );
}

/** Forgets a deleted schedule's runs: one DEL. */
export async function forgetBoardRuns(
  connection: RedisConnection,
  name: string,
  prefix?: string,
): Promise<void> {
  await connection.call(["DEL", boardRunsKey(name, prefix)]);
}
