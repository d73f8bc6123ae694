/**
 * What the current user may do, as `GET /api/config` lists it (`allowed`):
 * the UI renders no control the server would refuse. The server still
 * checks every request; this only spares the user a 403.
 *
 * @module
 */
import type { BoardConfig } from "./types.ts";

/**
 * Whether the config allows `action` (`job.retry`, `payload.read`, ...).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { may } from "./permissions.ts";
 * const config = { allowed: ["search"] } as never;
 * assert.ok(may(config, "search"));
 * assert.ok(!may(config, "job.retry"));
 * ```
 */
export function may(config: Pick<BoardConfig, "allowed">, action: string): boolean {
  return config.allowed.includes(action);
}

/**
 * Whether the board records a job history and the user may read it: the
 * history's charts and a task's week are shown only then.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mayReadHistory } from "./permissions.ts";
 * assert.ok(mayReadHistory({ history: true, allowed: ["history.read"] }));
 * assert.ok(!mayReadHistory({ history: false, allowed: ["history.read"] }));
 * assert.ok(!mayReadHistory({ history: true, allowed: [] }));
 * ```
 */
export function mayReadHistory(config: Pick<BoardConfig, "history" | "allowed">): boolean {
  return config.history && may(config, "history.read");
}
