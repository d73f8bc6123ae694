/**
 * What the leading Redis source shares of its background work, and how the
 * others read it back: the task list discovery found (with when its pass
 * started) and each task's retrying figure (with since when it is exact).
 * A value that does not read as one of ours counts as none.
 *
 * @module
 */

import type { SplitReading } from "./retrying_split.ts";

/** The shared result holding the task list. */
export const SHARED_TASKS = "tasks";
/** The shared result holding the retrying figures. */
export const SHARED_RETRYING = "retrying";

/** A task list, and when (ms since the epoch) the discovery that found it started. */
export interface SharedTaskList {
  tasks: string[];
  asOf: number;
}

/** The task list as shared. */
export function encodeTaskList(list: SharedTaskList): string {
  return JSON.stringify(list);
}

/** A shared task list, or null when `text` is none or not one. */
export function decodeTaskList(text: string | null): SharedTaskList | null {
  const value = parse(text) as Partial<SharedTaskList> | null;
  if (!value || !Array.isArray(value.tasks) || typeof value.asOf !== "number") return null;
  if (!value.tasks.every((task) => typeof task === "string")) return null;
  return { tasks: value.tasks, asOf: value.asOf };
}

/** Each task's retrying figure as shared: `{ task: [retrying, asOf] }`. */
export function encodeRetrying(figures: ReadonlyMap<string, SplitReading>): string {
  const flat: Record<string, [number, number | null]> = {};
  for (const [task, { retrying, asOf }] of figures) flat[task] = [retrying, asOf];
  return JSON.stringify(flat);
}

/** Shared retrying figures, or null when `text` is none or not ours; bad entries are left out. */
export function decodeRetrying(text: string | null): Map<string, SplitReading> | null {
  const value = parse(text);
  if (!value || typeof value !== "object" || Array.isArray(value)) return null;
  const figures = new Map<string, SplitReading>();
  for (const [task, entry] of Object.entries(value)) {
    if (!Array.isArray(entry) || !Number.isFinite(entry[0])) continue;
    const asOf = Number.isFinite(entry[1]) ? entry[1] as number : null;
    figures.set(task, { retrying: entry[0] as number, asOf });
  }
  return figures;
}

function parse(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
