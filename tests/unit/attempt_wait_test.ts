/**
 * The job page's "Waited" is this attempt's wait: from when the attempt was
 * due (the retry's next-attempt time) to its start, not from the job's
 * creation, which counts every earlier attempt and backoff too.
 */

import assert from "node:assert/strict";
import { attemptWait } from "../../ui/pages/job/attempt_wait.ts";
import type { AttemptRecord } from "../../src/contract/attempts.ts";

const retry = (attempt: number, at: number, nextAttemptAt: number): AttemptRecord => ({
  attempt,
  outcome: "retrying",
  error: null,
  at,
  nextAttemptAt,
});

Deno.test("a first attempt waited from its creation to its start", () => {
  assert.equal(attemptWait({ attempt: 1, created: 1_000, processed: 1_250 }, null), 250);
});

Deno.test("a third attempt waited from when it was due, not from the job's creation", () => {
  const history = [retry(1, 2_000, 7_000), retry(2, 8_000, 38_000)];
  assert.equal(attemptWait({ attempt: 3, created: 1_000, processed: 38_400 }, history), 400);
});

Deno.test("a later attempt whose retry was trimmed from the stream has no known wait", () => {
  assert.equal(attemptWait({ attempt: 3, created: 1_000, processed: 38_400 }, []), null);
  assert.equal(attemptWait({ attempt: 2, created: 1_000, processed: 5_000 }, null), null);
});

Deno.test("a job not started yet has no wait", () => {
  assert.equal(attemptWait({ attempt: 1, created: 1_000, processed: null }, null), null);
});
