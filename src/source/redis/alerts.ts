/**
 * The alerts' memory in Redis, beside taskora's keys (see `alertKeys`): the
 * evaluator's states as one JSON string the leader replaces (one SET), and
 * the notices with their outcome in a list, newest first, trimmed at each
 * append (one pipeline of LPUSH and LTRIM). What does not decode is left
 * out, never answered as an error.
 *
 * @module
 */

import type { AlertHistoryEntry, AlertState } from "../../contract/alerts.ts";
import { checkAlertStateCount } from "../alert_states_cap.ts";
import { alertKeys } from "../wire/keys.ts";
import type { RedisConnection } from "./client.ts";

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

function isEntry(value: unknown): value is AlertHistoryEntry {
  return isObject(value) && isObject(value.notice) && typeof value.notice.key === "string" &&
    Array.isArray(value.deliveries);
}

/** The states last written: one GET. */
export async function readAlertStates(
  connection: RedisConnection,
  prefix?: string,
): Promise<AlertState[]> {
  const text = await connection.call<string | null>(["GET", alertKeys(prefix).states]);
  const states = text === null ? [] : parsed(text);
  return Array.isArray(states) ? states.filter(isState) : [];
}

/** Replaces the states (refused whole above the cap): one SET. */
export async function writeAlertStates(
  connection: RedisConnection,
  states: readonly AlertState[],
  prefix?: string,
): Promise<void> {
  checkAlertStateCount(states.length);
  await connection.call(["SET", alertKeys(prefix).states, JSON.stringify(states)]);
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
