/**
 * Shapes of the REST API answers the UI reads (see DESIGN.md, "REST API contract").
 *
 * @module
 */

/** `GET <base>/api/config`. */
export interface BoardConfig {
  title: string;
  logo: string | null;
  favicon: string | null;
  theme: Theme;
  readOnly: boolean;
  /** Polling period in milliseconds. */
  refreshInterval: number;
  authEnabled: boolean;
}

/** Colour theme; `auto` follows the operating system (`prefers-color-scheme`). */
export type Theme = "light" | "dark" | "auto";

/** Job states counted per task. */
export const STATES = [
  "waiting",
  "active",
  "delayed",
  "retrying",
  "failed",
  "completed",
  "cancelled",
  "expired",
] as const;

/** One job state. */
export type JobState = typeof STATES[number];

/** Per-state job counts of one task. */
export type TaskStats = Record<JobState, number>;

/** Totals across tasks (no `retrying`: those jobs are counted in `delayed`). */
export type Totals = Omit<TaskStats, "retrying">;

/** How a task is doing (see `src/api/health.ts`). */
export interface TaskHealth {
  status: "healthy" | "warning" | "critical" | "idle";
  /** Why, in words. */
  reason: string;
  /** Failed share of finished jobs in the health window (0–1), null when none finished. */
  failureRate: number | null;
}

/** `GET <base>/api/overview`. */
export interface Overview {
  tasks: { name: string; stats: TaskStats; health: TaskHealth }[];
  totals: Totals;
  redis: {
    version: string;
    /** Human-readable (Redis' `used_memory_human`), or bytes. */
    usedMemory: number | string;
    /** Seconds. */
    uptime: number;
    connected: boolean;
  };
  /** Milliseconds since the board started. */
  uptime: number;
}
