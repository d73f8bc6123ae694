/**
 * entriesOf(): what the recorder makes of a batch of task events and the
 * job fields it read. The cases a real worker cannot be steered into on
 * demand: a batch that holds two failures of one job (the job's error is
 * the later one's), a job taskora no longer holds, a cancel.
 */

import assert from "node:assert/strict";
import { entriesOf, type JobFields, type TaskEvent } from "../../src/history/recorder.ts";

const event = (at: number, fields: Record<string, string>): TaskEvent => ({
  task: "charge-card",
  id: `${at}-0`,
  fields: { jobId: "j1", ...fields },
});

const jobs = (fields: JobFields | null) => new Map([["charge-card\0j1", fields]]);

Deno.test("entriesOf() gives a job's error only to the last failure of the batch, its start from the active entry before", () => {
  const entries = entriesOf(
    [
      event(1000, { event: "active" }),
      event(1100, { event: "retrying", attempt: "2", nextAttemptAt: "1101" }),
      event(1200, { event: "active" }),
      event(1300, { event: "failed" }),
    ],
    jobs({
      ts: "900",
      processedOn: "1200",
      finishedOn: "1300",
      attempt: "2",
      _v: "4",
      error: "boom #2",
    }),
  );
  assert.deepEqual(
    entries.map((
      e,
    ) => [e.attempt, e.outcome, e.startedAt, e.endedAt, e.error, e.version, e.createdAt]),
    [
      [1, "retrying", 1000, 1100, null, 4, 900],
      [2, "failed", 1200, 1300, "boom #2", 4, 900],
    ],
  );
  assert.equal(entries[1].errorShape, "boom #<n>");
  assert.deepEqual([entries[1].dataBytes, entries[1].resultBytes], [undefined, undefined]);
});

Deno.test("entriesOf() keeps the sizes read, the result's only for a completed job", () => {
  const read = jobs({ ts: "1", dataBytes: "42", resultBytes: "7" });
  const [done] = entriesOf([event(10, { event: "completed" })], read);
  assert.deepEqual([done.dataBytes, done.resultBytes], [42, 7]);
  const [failed] = entriesOf([event(10, { event: "failed" })], read);
  assert.deepEqual([failed.dataBytes, failed.resultBytes], [42, undefined]);
});

Deno.test("entriesOf() takes an attempt's start from an active entry of an earlier batch", () => {
  const starts = new Map<string, number>();
  const read = jobs({ ts: "900", processedOn: "2000", error: "boom" });
  assert.deepEqual(entriesOf([event(1000, { event: "active" })], read, undefined, starts), []);
  const [entry] = entriesOf(
    [event(1100, { event: "retrying", attempt: "2" }), event(2000, { event: "active" })],
    read,
    undefined,
    starts,
  );
  assert.deepEqual([entry.attempt, entry.startedAt, entry.endedAt], [1, 1000, 1100]);
  assert.deepEqual([...starts], [["charge-card\0j1", 2000]]);
});

Deno.test("entriesOf() records a job taskora no longer holds from its event alone", () => {
  const [entry] = entriesOf([event(5000, { event: "completed" })], jobs(null));
  assert.deepEqual(
    [entry.attempt, entry.outcome, entry.createdAt, entry.startedAt, entry.endedAt, entry.version],
    [1, "completed", 5000, null, 5000, null],
  );
});

Deno.test("entriesOf() keeps a cancel's reason as its error, no start, and skips events that end nothing", () => {
  const entries = entriesOf([
    event(10, { event: "waiting" }),
    event(20, { event: "progress", value: "5" }),
    event(30, { event: "cancelled", reason: "operator" }),
  ], jobs({ ts: "5", processedOn: "25", cancelledAt: "30" }));
  assert.deepEqual(entries.map((e) => [e.outcome, e.startedAt, e.error]), [[
    "cancelled",
    null,
    "operator",
  ]]);
});

Deno.test("entriesOf() stores payloads only through the redaction it is given", () => {
  const fields: JobFields = { ts: "1", data: '{"password":"x","n":1}', result: '"ok"' };
  const [bare] = entriesOf([event(10, { event: "completed" })], jobs(fields));
  assert.equal("data" in bare, false);
  const [kept] = entriesOf(
    [event(10, { event: "completed" })],
    jobs(fields),
    (value) => typeof value === "object" ? { ...value, password: "[REDACTED]" } : value,
  );
  assert.deepEqual([JSON.parse(kept.data!), kept.result], [
    { password: "[REDACTED]", n: 1 },
    '"ok"',
  ]);
});
