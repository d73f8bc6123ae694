/**
 * taskora's migration lock, kept by the board as by every taskora process:
 * while it is held every mutation is refused (503 `MIGRATION_IN_PROGRESS`),
 * and a retry-all stops before its next batch. Reads go on.
 *
 * @module
 */

import type { MiddlewareHandler } from "hono";
import type { MigrationLock } from "../contract/migration_lock.ts";
import { BoardError } from "../errors.ts";
import type { TaskSource } from "../source/types.ts";

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

function describe(lock: MigrationLock): string {
  const what = [
    lock.reason && `"${lock.reason}"`,
    lock.by && `by ${lock.by}`,
    lock.startedAt !== null && `started ${new Date(lock.startedAt).toISOString()}`,
  ].filter(Boolean).join(", ");
  const until = lock.expiresInMs === null
    ? ""
    : `; the lock expires by itself in ${Math.ceil(lock.expiresInMs / 1000)} s`;
  return `taskora is migrating the keyspace${what ? ` (${what})` : ""}: every taskora process ` +
    `halts its writes until the migration lock is freed, and so does the board${until}. ` +
    "Reads go on; try again when it is done.";
}

/** Refuses mutations while the source says the lock is held. */
export function migrationGuard(source: TaskSource): MiddlewareHandler {
  return async function migrationLock(c, next) {
    if (!READS.has(c.req.method) && source.readLocks) {
      const lock = await source.readLocks({ kind: "migration" });
      if (lock) throw new BoardError("MIGRATION_IN_PROGRESS", describe(lock));
    }
    await next();
  };
}

/**
 * The lock check before each batch of a retry-all (`BeforeBatch`), as
 * `/bulk` checks before each step: once the lock is found held, no further
 * batch runs, and {@link MigrationGate.assertFinished} refuses the answer,
 * saying how many jobs were retried before it stopped.
 */
export interface MigrationGate {
  beforeBatch(): Promise<boolean>;
  /** Throws 503 `MIGRATION_IN_PROGRESS` with `done` when a batch was held back. */
  assertFinished(retried: number): void;
}

/** A {@link MigrationGate} over `source`'s migration lock, for one request. */
export function migrationGate(source: TaskSource): MigrationGate {
  let lock: MigrationLock | null = null;
  return {
    async beforeBatch() {
      lock ??= await source.readLocks?.({ kind: "migration" }) ?? null;
      return lock === null;
    },
    assertFinished(retried) {
      if (lock === null) return;
      throw new BoardError(
        "MIGRATION_IN_PROGRESS",
        `The retry stopped after ${retried.toLocaleString("en-US")} jobs were sent back to ` +
          `waiting; the others are still failed. ${describe(lock)}`,
        { done: retried },
      );
    },
  };
}
