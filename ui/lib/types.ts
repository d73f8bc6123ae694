/**
 * The contract's types under the names the UI's shared code uses. Every
 * answer's shape is written once, in `src/contract/` (type-only imports: no
 * server code reaches the bundle; tests/unit/layering_test.ts holds it).
 *
 * @module
 */
import type { ConfigResponse } from "../../src/contract/config.ts";

/** What the UI keeps of `GET <base>/api/config`: its base path comes from the page itself. */
export type BoardConfig = Omit<ConfigResponse, "basePath">;

export type { Theme } from "../../src/contract/config.ts";
/** Job states counted per task, in the order the board shows them. */
export { JOB_STATES as STATES } from "../../src/contract/states.ts";
export type { JobState, QueueStats as TaskStats } from "../../src/contract/states.ts";
export type { TaskHealth } from "../../src/contract/health.ts";
export type { OverviewResponse as Overview } from "../../src/contract/overview.ts";
export type { Totals } from "../../src/contract/totals.ts";
