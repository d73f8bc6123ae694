/**
 * `GET /migration-lock`: whether taskora's migration lock is held, for the
 * UI's banner (the guard that refuses mutations meanwhile is
 * `src/migration/lock_guard.ts`).
 *
 * @module
 */

import type { ApiDeps } from "./deps.ts";
import { apiRoute, apiRouter } from "./openapi.ts";
import { MigrationLockSchema } from "./schema/board.ts";

const getLock = apiRoute({
  method: "get",
  path: "/migration-lock",
  tags: ["board"],
  summary: "Whether taskora's migration lock is held (mutations wait while it is)",
  ok: MigrationLockSchema,
});

/** `GET /migration-lock`. */
export function migrationLockRoutes({ source }: ApiDeps) {
  return apiRouter().openapi(getLock, async (c) => {
    const lock = await source.readLocks?.({ kind: "migration" }) ?? null;
    return c.json({ held: lock !== null, lock }, 200);
  });
}
