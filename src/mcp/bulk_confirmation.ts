/**
 * The confirmation a bulk tool's start needs: its dry run answers it, and
 * the start must repeat it, so an agent sees how many jobs an action would
 * touch before it acts. It is the digest of the selection (action, selector,
 * reason), the same on every replica and for the same selection only; it is
 * no secret and grants nothing: the API's permission check still decides.
 *
 * @module
 */

/** Objects with their keys sorted: the same selection in another key order is the same. */
function sortedKeys(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0));
}

/**
 * The confirmation of starting `body` (`POST /bulk`'s body, `dryRun` aside).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bulkConfirmation } from "./bulk_confirmation.ts";
 *
 * const dryRun = { action: "retry", selector: { task: "email", state: "failed" }, dryRun: true };
 * const start = { selector: { state: "failed", task: "email" }, action: "retry" };
 * assert.equal(await bulkConfirmation(dryRun), await bulkConfirmation(start));
 * assert.notEqual(
 *   await bulkConfirmation(start),
 *   await bulkConfirmation({ ...start, action: "delete" }),
 * );
 * ```
 */
export async function bulkConfirmation(body: unknown): Promise<string> {
  const { action, selector, reason } = (body ?? {}) as Record<string, unknown>;
  const bytes = new TextEncoder().encode(
    JSON.stringify([action, selector, reason ?? null], sortedKeys),
  );
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest.subarray(0, 12), (byte) => byte.toString(16).padStart(2, "0")).join("");
}
