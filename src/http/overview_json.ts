/**
 * The overview's answer from the live state as JSON text, each task's
 * counts, verdict and hour of rate written once: they are the objects of
 * the state's rows (see `feed/live_read.ts`), which a pass replaces rather
 * than changes, and which every overview until the row changes shares (a
 * pass changes a few rows a second; an overview of every task wrote all of
 * them at each request, the route's largest cost after the store's read).
 * Only what moves with the clock (each task's latency, the totals, the
 * uptimes) is written at each answer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { overviewJson } from "./overview_json.ts";
 *
 * const body = {
 *   tasks: [],
 *   matched: 0,
 *   totals: { waiting: 0, active: 0, delayed: 0, retrying: 0, completed: 0, failed: 0, cancelled: 0, expired: 0 },
 *   healthCounts: { critical: 0, warning: 0, healthy: 0, idle: 0 },
 *   asOf: 1_000,
 *   redis: { version: "7.2.4", usedMemory: "1.00M", uptime: 2, connected: true },
 *   uptime: 3,
 * };
 * assert.equal(overviewJson(body), JSON.stringify(body));
 * ```
 *
 * @module
 */

import type { OverviewResponse, OverviewTask } from "../contract/overview.ts";

/** The text of each object written, while the object lives. */
const texts = new WeakMap<object, string>();

/** The JSON text of `value`, an object never changed in place: written once. */
function keptText(value: object): string {
  let text = texts.get(value);
  if (text === undefined) texts.set(value, text = JSON.stringify(value));
  return text;
}

/** A task as `JSON.stringify` writes it (its keys in the same order), its fixed parts kept. */
function taskText({ name, stats, retryingAsOf, health, latency, rate }: OverviewTask): string {
  return `{"name":${JSON.stringify(name)},"stats":${keptText(stats)},"retryingAsOf":${
    JSON.stringify(retryingAsOf)
  },"health":${keptText(health)},"latency":${JSON.stringify(latency)},"rate":${keptText(rate)}}`;
}

/**
 * `JSON.stringify(body)`, for an answer whose tasks' `stats`, `health` and
 * `rate` are never changed in place (the live state's).
 */
export function overviewJson(body: OverviewResponse): string {
  const { tasks, ...rest } = body;
  return `{"tasks":[${tasks.map(taskText).join(",")}],${JSON.stringify(rest).slice(1)}`;
}
