/**
 * Shapes of the REST API answers the UI reads (see DESIGN.md, "REST API contract").
 * The server's own types are re-exported, so an answer's shape is written once.
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

/** Job states counted per task, in the order the board shows them. */
export { JOB_STATES as STATES } from "../../src/contract/states.ts";
export type { JobState, QueueStats as TaskStats } from "../../src/contract/states.ts";
export type { TaskHealth } from "../../src/contract/health.ts";
export type { OverviewResponse as Overview } from "../../src/contract/overview.ts";
export type { Totals } from "../../src/contract/totals.ts";
