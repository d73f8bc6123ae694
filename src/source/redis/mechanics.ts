/**
 * One bounded step of a scan for a task's mechanism keys (see
 * `contract/mechanics.ts`): at most {@link MECHANICS_SCAN_CALLS} SCAN calls
 * through every master in turn, then one pipeline reading what each key
 * found holds. The cursor names the master and its SCAN cursor.
 *
 * @module
 */

import {
  MECHANICS_SCAN_CALLS,
  MECHANICS_STEP_ENTRIES,
  type MechanicsStep,
  type MechanismEntry,
} from "../../contract/mechanics.ts";
import { taskKeys } from "../wire/keys.ts";
import {
  type MechanismKey,
  mechanismKey,
  mechanismPattern,
  parseMechanismKey,
} from "../wire/mechanics.ts";
import type { Command, RedisConnection } from "./client.ts";
import { globEscape, SCAN_COUNT } from "./discovery.ts";

const numberOr = (raw: unknown): number | null =>
  raw === null || raw === undefined || raw === "" ? null : Number(raw);
const stringOr = (raw: unknown): string | null => raw === null ? null : String(raw);
const ttlOf = (pttl: unknown): number | null => Number(pttl) >= 0 ? Number(pttl) : null;

/** The commands that read one mechanism key's value. */
function readsOf(jobPrefix: string, found: MechanismKey): Command[] {
  const key = mechanismKey(jobPrefix, found);
  switch (found.kind) {
    case "concurrency":
    case "dedup":
      return [["GET", key]];
    case "throttle":
    case "debounce":
      return [["GET", key], ["PTTL", key]];
    case "collect":
      return [
        ["LLEN", mechanismKey(jobPrefix, found, "items")],
        ["HMGET", key, "firstAt", "lastAt"],
        ["GET", mechanismKey(jobPrefix, found, "job")],
      ];
  }
}

/**
 * One step of the scan of `task`'s mechanism keys from `cursor` (null: the
 * start); stops early once `signal` aborts. Round trips: the SCAN calls,
 * one pipeline of values, one of the jobs they name.
 */
export async function scanMechanics(
  connection: RedisConnection,
  task: string,
  cursor: string | null,
  prefix?: string,
  signal?: AbortSignal,
): Promise<MechanicsStep> {
  const { jobPrefix, delayed } = taskKeys(task, prefix);
  const pattern = mechanismPattern(globEscape(jobPrefix));
  const masters = await connection.masters();
  const [start, from] = (cursor ?? "0-0").split("-");
  let node = Number(start);
  let position = from;
  const found = new Map<string, MechanismKey>();
  let calls = 0;
  while (node < masters.length && calls < MECHANICS_SCAN_CALLS && !signal?.aborted) {
    const [next, keys] = await connection.callOn<[string, string[]]>(masters[node], [
      "SCAN",
      position,
      "MATCH",
      pattern,
      "COUNT",
      String(SCAN_COUNT),
    ]);
    calls++;
    for (const key of keys) {
      const parsed = parseMechanismKey(jobPrefix, key);
      if (parsed) found.set(`${parsed.kind}:${parsed.name}`, parsed);
    }
    position = next;
    if (position === "0") node++;
    if (found.size >= MECHANICS_STEP_ENTRIES) break;
  }
  const next = node >= masters.length ? null : `${node}-${position}`;
  const entries = [...found.values()];
  const reads = entries.map((entry) => readsOf(jobPrefix, entry));
  const replies = await connection.pipeline(reads.flat());
  let i = 0;
  const values = reads.map((commands) => replies.slice(i, i += commands.length));
  // The jobs named (debounced, dedup, collect flush): their run-at and state, one pipeline.
  const named = entries.map((entry, n): string | null =>
    entry.kind === "debounce" || entry.kind === "dedup"
      ? stringOr(values[n][0])
      : entry.kind === "collect"
      ? stringOr(values[n][2])
      : null
  );
  const jobReplies = await connection.pipeline(
    named.flatMap((id): Command[] =>
      id === null ? [] : [["ZSCORE", delayed, id], ["HGET", `${jobPrefix}${id}`, "state"]]
    ),
  );
  let j = 0;
  const results = entries.map((entry, n): MechanismEntry => {
    const value = values[n];
    const id = named[n];
    const [runAt, state] = id === null ? [null, null] : jobReplies.slice(j, j += 2);
    switch (entry.kind) {
      case "concurrency":
        return { kind: "concurrency", key: entry.name, count: Number(value[0] ?? 0) };
      case "throttle":
        return {
          kind: "throttle",
          key: entry.name,
          count: Number(value[0] ?? 0),
          resetsInMs: ttlOf(value[1]),
        };
      case "debounce":
        return { kind: "debounce", key: entry.name, jobId: id, runAt: numberOr(runAt) };
      case "dedup":
        return { kind: "dedup", key: entry.name, jobId: id, state: stringOr(state) };
      case "collect": {
        const [firstAt, lastAt] = value[1] as (string | null)[];
        return {
          kind: "collect",
          key: entry.name,
          size: Number(value[0]),
          firstAt: numberOr(firstAt),
          lastAt: numberOr(lastAt),
          flushJobId: id,
          flushAt: numberOr(runAt),
        };
      }
    }
  });
  return { entries: results, scanCalls: calls, cursor: next };
}
