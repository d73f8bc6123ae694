/**
 * History entries as the recorder writes them, for tests that fill a
 * history store directly.
 *
 * @module
 */

import type { HistoryEntry } from "../../src/history/summary.ts";

/** A job `id` of `task` completed on its first attempt, ended at `endedAt`. */
export function completedEntry(task: string, id: string, endedAt: number): HistoryEntry {
  return {
    task,
    id,
    event: `${endedAt}-${id}`,
    attempt: 1,
    outcome: "completed",
    version: 1,
    createdAt: endedAt - 200,
    startedAt: endedAt - 100,
    endedAt,
    error: null,
    errorShape: null,
  };
}
