/**
 * Decoding taskora's migration lock, and taskora's rule for who halts: a
 * process halts while the lock's `targetWireVersion` is at or above its own
 * wire version, or while the payload cannot be read (taskora fails safe).
 *
 * @module
 */

import type { MigrationLock } from "../../contract/migration_lock.ts";
import { SUPPORTED_WIRE_VERSIONS } from "./keys.ts";

function numberOr(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

function stringOr(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

/**
 * The lock from its stored value and PTTL (ms; negative for none), or null
 * when it does not halt a wire-6 writer such as the board.
 */
export function decodeMigrationLock(raw: string | null, pttl: number): MigrationLock | null {
  if (raw === null) return null;
  const expiresInMs = pttl >= 0 ? pttl : null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    parsed = null;
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    const none = { by: null, reason: null, startedAt: null, expectedDurationMs: null };
    return { ...none, targetWireVersion: null, expiresInMs, raw };
  }
  const payload = parsed as Record<string, unknown>;
  const target = numberOr(payload.targetWireVersion);
  if (target !== null && target < SUPPORTED_WIRE_VERSIONS.max) return null;
  return {
    by: stringOr(payload.by),
    reason: stringOr(payload.reason),
    startedAt: numberOr(payload.startedAt),
    expectedDurationMs: numberOr(payload.expectedDurationMs),
    targetWireVersion: target,
    expiresInMs,
  };
}
