/**
 * The audit tests' shared parts: a mutation or read of a board's API as
 * its own page sends it, the trail's entries, and a record to append.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { AuditEntry, AuditRecord } from "../../src/contract/audit.ts";

/** A board, as far as these tests call it. */
export interface Fetching {
  fetch(request: Request): Response | Promise<Response>;
}

/** A request to `/board/api{path}` from the board's own origin, JSON typed. */
export function callApi(
  board: Fetching,
  method: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  return Promise.resolve(board.fetch(
    new Request(`http://board.test/board/api${path}`, {
      method,
      headers: { origin: "http://board.test", "content-type": "application/json", ...headers },
    }),
  ));
}

/** The entries of `GET /audit{query}`. */
export async function auditEntries(board: Fetching, query = ""): Promise<AuditEntry[]> {
  const response = await callApi(board, "GET", `/audit${query}`);
  assert.equal(response.status, 200);
  return (await response.json()).entries;
}

/** A successful `job.retry` record by ada, with `fields` over it. */
export function auditRecord(fields: Partial<AuditRecord> = {}): AuditRecord {
  return {
    at: Date.now(),
    user: "ada",
    action: "job.retry",
    target: "job-1",
    task: "email",
    count: 1,
    outcome: "ok",
    status: 200,
    code: null,
    detail: null,
    ...fields,
  };
}
