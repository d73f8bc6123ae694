/**
 * The assertion HTTP tests make of a refusal: its status, its catalogue
 * code, and what its message says.
 *
 * @module
 */

import assert from "node:assert/strict";

/** Asserts that `response` is the error `code` with `status`, its message matching `mentions`. */
export async function expectError(
  response: Response,
  status: number,
  code: string,
  mentions: RegExp,
): Promise<void> {
  const body = await response.json();
  assert.equal(response.status, status, JSON.stringify(body));
  assert.equal(body.code, code);
  assert.match(body.error, mentions);
}
