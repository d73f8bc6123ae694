/**
 * What the task page reads from the API.
 *
 * @module
 */
import type { TaskStats } from "../../lib/types.ts";

/** `GET /tasks/{task}/stats`: the per-state counts and the task's share of Redis. */
export interface TaskStatsResponse extends TaskStats {
  task: string;
  keyCount: number;
  memoryBytes: number;
}
