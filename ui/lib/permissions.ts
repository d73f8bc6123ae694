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
