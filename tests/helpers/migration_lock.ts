/**
 * Takes taskora's migration lock as a migrator to wire format 7 would:
 * `SET taskora:migration:lock <payload> PX 120000` (see upstream
 * `redis/keys.ts`, `buildMigrationKeys`).
 *
 * @module
 */

import type { connectClient } from "./redis_server.ts";

/** The payload written; tests match its `reason` and `by`. */
export const MIGRATION_PAYLOAD = {
  by: "taskora-wire-7",
  reason: "wireVersion-6-to-7",
  expectedDurationMs: 60_000,
  targetWireVersion: 7,
};

/** Where taskora keeps its migration lock. */
export const MIGRATION_LOCK_KEY = "taskora:migration:lock";

/** Holds the lock for `ttlMs` (two minutes) from now. */
export async function holdMigrationLock(
  client: Awaited<ReturnType<typeof connectClient>>,
  ttlMs = 120_000,
): Promise<void> {
  const payload = { ...MIGRATION_PAYLOAD, startedAt: Date.now() };
  await client.set(MIGRATION_LOCK_KEY, JSON.stringify(payload), { PX: ttlMs });
}
