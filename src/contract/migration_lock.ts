/**
 * taskora's migration lock (`taskora[:prefix]:migration:lock`): while a
 * migrator holds it, every taskora process halts writes, and so does the
 * board (`GET /migration-lock`; mutations answer 503 `MIGRATION_IN_PROGRESS`).
 *
 * @module
 */

/** The lock's JSON payload, as taskora's migrator writes it (fields it lacks are null). */
export interface MigrationLock {
  /** Who holds it (`taskora-wire-2`). */
  by: string | null;
  /** Why (`wireVersion-1-to-2`). */
  reason: string | null;
  /** When the migration started, ms. */
  startedAt: number | null;
  /** The migrator's worst-case budget, ms. */
  expectedDurationMs: number | null;
  /** Processes at or below this wire version halt. */
  targetWireVersion: number | null;
  /** Milliseconds until the lock expires by itself (its PTTL), or null without one. */
  expiresInMs: number | null;
  /** The payload as stored, when it is not the JSON above. */
  raw?: string;
}

/** The answer of `GET /migration-lock`. */
export interface MigrationLockResponse {
  /** Whether mutations are halted now. */
  held: boolean;
  /** The lock, when held. */
  lock: MigrationLock | null;
}
