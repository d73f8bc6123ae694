/**
 * The job id a schedule trigger dispatches under. With an idempotency key
 * the id is derived from the schedule and the key, so a trigger sent again
 * (the operator's retry after an unconfirmed answer) finds the job the first
 * one made instead of dispatching a second; both sources then return that
 * job. Without a key every trigger is a fresh dispatch.
 *
 * @module
 */

import { invalidParam } from "../errors.ts";

/** Longest idempotency key accepted. */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 200;

/** Printable ASCII, as an HTTP header value carries it. */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]+$/;

/**
 * Checks an idempotency key: 1 to 200 printable ASCII characters, no spaces.
 * A 400 `INVALID_PARAM` naming `name` otherwise.
 */
export function assertIdempotencyKey(key: string, name = "idempotencyKey"): void {
  if (key.length > MAX_IDEMPOTENCY_KEY_LENGTH || !IDEMPOTENCY_KEY_PATTERN.test(key)) {
    throw invalidParam(
      name,
      `must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters without spaces`,
    );
  }
}

/**
 * A random UUID without a key; with one, a UUID (version 8, RFC 9562) made of
 * the SHA-256 of the schedule name and the key, so the same pair always
 * names the same job and two schedules never share one.
 */
export async function triggerJobId(schedule: string, idempotencyKey?: string): Promise<string> {
  if (idempotencyKey === undefined) return crypto.randomUUID();
  assertIdempotencyKey(idempotencyKey);
  const input = new TextEncoder().encode(`queue-board trigger\0${schedule}\0${idempotencyKey}`);
  const bytes = new Uint8Array(await crypto.subtle.digest("SHA-256", input)).slice(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x80;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${
    hex.slice(20)
  }`;
}
