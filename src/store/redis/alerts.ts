/**
 * The alerts' memory in Redis, beside taskora's keys (see `alertKeys`): the
 * evaluator's states and when it ran as one JSON string the leader replaces (one SET), and
 * the notices with their outcome in a list, newest first, trimmed at each
 * append (one pipeline of LPUSH and LTRIM), and the error shapes the
 * `newErrorGroup` rule saw in a hash the leader updates after each pass.
 * What does not decode is left out, never answered as an error.
 *
 * @module
 */

import {
  type AlertHistoryEntry,
  type AlertState,
  type AlertStatus,
  type AlertStatusWrite,
  KNOWN_SHAPES_TTL_MS,
  type KnownShape,
  type KnownShapesChange,
  type KnownShapesRecord,
  type LockSeen,
} from "../../contract/alerts.ts";
import { checkAlertStateCount } from "../alert_states_cap.ts";
import { cutKnownShapes, knownShapeKey } from "../known_shapes_cap.ts";
import { alertKeys } from "../../source/wire/keys.ts";
import type { Command, RedisConnection } from "../../source/redis/client.ts";
import type { LuaScript } from "../../source/redis/scripts.ts";

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function isState(value: unknown): value is AlertState {
  return isObject(value) && typeof value.rule === "string" && typeof value.phase === "string" &&
    typeof value.pendingSince === "number";
}

function isLockSeen(value: unknown): value is LockSeen {
  return isObject(value) && typeof value.lock === "string" && typeof value.at === "number";
}

function isEntry(value: unknown): value is AlertHistoryEntry {
  return isObject(value) && isObject(value.notice) && typeof value.notice.key === "string" &&
    Array.isArray(value.deliveries);
}

/**
 * The states last written, with when and the rules evaluated: one GET. The
 * value is `{ asOf, states, evaluated? }`; a bare array (what boards before
 * `asOf` wrote) has no time.
 */
export async function readAlertStatus(
  connection: RedisConnection,
  prefix?: string,
): Promise<AlertStatus> {
  const text = await connection.call<string | null>(["GET", alertKeys(prefix).states]);
  const value = text === null ? null : parsed(text);
  const record = isObject(value) ? value : { states: value };
  const states = Array.isArray(record.states) ? record.states.filter(isState) : [];
  const evaluated = Array.isArray(record.evaluated)
    ? { evaluated: record.evaluated.filter((name) => typeof name === "string") }
    : {};
  const lockSeen = isLockSeen(record.lockSeen) ? { lockSeen: record.lockSeen } : {};
  return {
    asOf: typeof record.asOf === "number" ? record.asOf : null,
    states,
    ...evaluated,
    ...lockSeen,
  };
}

/**
 * Sets the states unless ARGV[2] is '1' and the stored value's `asOf` is
 * not ARGV[3]. The value is written as `{"asOf":…,"states":…}`, so its
 * `asOf` is read off its start, not by decoding up to 10,000 states; a
 * value of another shape has none (`null`). Answers 1 when it set them.
 */
const WRITE_ALERT_STATES: LuaScript = {
  name: "write-alert-states",
  writes: true,
  source: `
if ARGV[2] == '1' then
  local current = redis.call('GET', KEYS[1])
  local asOf = current and string.match(current, '^{"asOf":([^,]*),') or 'null'
  if asOf ~= ARGV[3] then return 0 end
end
redis.call('SET', KEYS[1], ARGV[1])
return 1
`,
};

/**
 * Replaces the states (refused whole above the cap) with when they were
 * evaluated and the rules evaluated; given `ifAsOf`, only while the stored
 * ones were evaluated then (false, nothing written, when another leader
 * wrote since): one script.
 */
export async function writeAlertStates(
  connection: RedisConnection,
  { asOf, states, ...notes }: AlertStatusWrite,
  ifAsOf: number | null | undefined,
  prefix?: string,
): Promise<boolean> {
  checkAlertStateCount(states.length);
  const written = await connection.call<number>({
    script: WRITE_ALERT_STATES,
    keys: [alertKeys(prefix).states],
    args: [
      // `asOf` first: the script reads it off the start.
      JSON.stringify({ asOf, states, ...notes }),
      ifAsOf === undefined ? "0" : "1",
      JSON.stringify(ifAsOf ?? null),
    ],
  });
  return written === 1;
}

/** Appends entries, keeping the `max` newest: one pipeline. */
export async function appendAlertHistory(
  connection: RedisConnection,
  entries: readonly AlertHistoryEntry[],
  max: number,
  prefix?: string,
): Promise<void> {
  if (entries.length === 0) return;
  const key = alertKeys(prefix).history;
  await connection.pipeline([
    ["LPUSH", key, ...entries.map((entry) => JSON.stringify(entry))],
    ["LTRIM", key, "0", String(max - 1)],
  ]);
}

/** The `limit` newest entries: one LRANGE. */
export async function listAlertHistory(
  connection: RedisConnection,
  limit: number,
  prefix?: string,
): Promise<AlertHistoryEntry[]> {
  const texts = await connection.call<string[]>([
    "LRANGE",
    alertKeys(prefix).history,
    "0",
    String(limit - 1),
  ]);
  return texts.map(parsed).filter(isEntry);
}

/** The hash field of the time the first leader took its baseline (no shape field lacks a NUL). */
const BASELINE_FIELD = "baselineAt";

/**
 * The error shapes the last leader kept, or null when none are stored (no
 * leader wrote them within {@link KNOWN_SHAPES_TTL_MS}): one HGETALL of at
 * most about `MAX_KNOWN_SHAPES` fields. A field that does not decode is left out.
 */
export async function readKnownShapes(
  connection: RedisConnection,
  prefix?: string,
): Promise<KnownShapesRecord | null> {
  const flat = await connection.call<string[]>(["HGETALL", alertKeys(prefix).shapes]);
  let baselineAt: number | null = null;
  const shapes: KnownShape[] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) {
    const [field, value] = [flat[i], flat[i + 1]];
    if (field === BASELINE_FIELD) {
      baselineAt = Number(value);
      continue;
    }
    const split = field.indexOf("\u0000");
    const match = /^(-?\d*):(-?\d+)$/.exec(value);
    if (split < 0 || !match) continue;
    shapes.push({
      task: field.slice(0, split),
      shape: field.slice(split + 1),
      first: match[1] === "" ? null : Number(match[1]),
      last: Number(match[2]),
    });
  }
  return baselineAt === null || !Number.isFinite(baselineAt) ? null : { baselineAt, shapes };
}

/**
 * Writes what a pass changed and renews the hash's expiry; answers how many
 * shapes the store then holds. A whole write first reads the fields to drop
 * (HKEYS), so a reader never finds the hash emptied halfway.
 */
export async function writeKnownShapes(
  connection: RedisConnection,
  change: KnownShapesChange,
  prefix?: string,
): Promise<number> {
  const key = alertKeys(prefix).shapes;
  const fields = cutKnownShapes(change.seen).flatMap(({ task, shape, first, last }) => [
    knownShapeKey(task, shape),
    `${first ?? ""}:${last}`,
  ]);
  const kept = new Set(fields.filter((_, i) => i % 2 === 0));
  const dropped = change.whole
    ? (await connection.call<string[]>(["HKEYS", key])).filter((field) =>
      field !== BASELINE_FIELD && !kept.has(field)
    )
    : change.forgotten.map(({ task, shape }) => knownShapeKey(task, shape));
  const commands: Command[] = [
    ["HSET", key, BASELINE_FIELD, String(change.baselineAt), ...fields],
    ["PEXPIRE", key, String(KNOWN_SHAPES_TTL_MS)],
    ["HLEN", key],
  ];
  if (dropped.length > 0) commands.unshift(["HDEL", key, ...dropped]);
  const replies = await connection.pipeline(commands);
  return Number(replies.at(-1)) - 1;
}
