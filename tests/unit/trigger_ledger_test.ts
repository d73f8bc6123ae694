/**
 * `memoryLedger()`: an idempotency key is held while its dispatch is sent
 * (a minute at most), then names its job for a day.
 */

import assert from "node:assert/strict";
import {
  memoryLedger,
  TRIGGER_CLAIM_TTL_MS,
  TRIGGER_KEY_TTL_MS,
} from "../../src/taskora/trigger.ts";

Deno.test("memoryLedger() frees a key claimed and never recorded after a minute, and keeps a recorded one a day", async () => {
  let now = 0;
  const ledger = memoryLedger(() => now);
  assert.equal(await ledger.claim("k1", "f1"), null, "claimed");
  assert.deepEqual(await ledger.claim("k1", "f1"), { jobId: "", fingerprint: "f1" }, "being sent");
  now += TRIGGER_CLAIM_TTL_MS;
  assert.equal(await ledger.claim("k1", "f2"), null, "its sender is gone: claimed anew");
  await ledger.record("k1", { jobId: "job-1", fingerprint: "f2" });
  now += TRIGGER_KEY_TTL_MS - 1;
  assert.deepEqual(await ledger.claim("k1", "f2"), { jobId: "job-1", fingerprint: "f2" });
  now += 1;
  assert.equal(await ledger.claim("k1", "f2"), null, "forgotten after a day");
});
