import assert from "node:assert/strict";
import { StoreUnavailableError } from "../../src/errors.ts";
import { CommandDeadlines } from "../../src/source/redis/deadlines.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";

/** Records how `work` ended, without awaiting it. */
function outcome(work: Promise<unknown>): { value?: unknown; error?: unknown } {
  const seen: { value?: unknown; error?: unknown } = {};
  work.then((value) => seen.value = value, (error) => seen.error = error);
  return seen;
}

Deno.test("batches in flight share one timer, and each fails at its own deadline", async () => {
  const timers = new FakeTimers();
  const deadlines = new CommandDeadlines(timers, 300);
  const first = outcome(deadlines.within(new Promise(() => {}), "Redis did not answer"));
  await timers.tick(100);
  const second = outcome(deadlines.within(new Promise(() => {}), "Redis did not answer"));
  let answer = (_: string) => {};
  const answered = outcome(
    deadlines.within(new Promise<string>((resolve) => answer = resolve), "Redis did not answer"),
  );
  assert.equal(timers.pending, 1, "one timer for three batches");

  answer("OK");
  await timers.tick(200); // t = 300: the first is due, the second not yet
  assert.ok(first.error instanceof StoreUnavailableError);
  assert.equal(first.error.message, "Redis did not answer within 300 ms");
  assert.equal(second.error === undefined, true, "the second is not due yet");
  assert.equal(answered.value, "OK");
  assert.equal(timers.pending, 1, "re-armed for the second");

  await timers.tick(100); // t = 400
  assert.ok(second.error instanceof StoreUnavailableError);
  assert.equal(timers.pending, 0, "nothing in flight: not re-armed");
  deadlines.close();
});

Deno.test("a batch that answers in time is not failed, and a failed one keeps its error", async () => {
  const timers = new FakeTimers();
  const deadlines = new CommandDeadlines(timers, 300);
  const refused = new Error("connection reset");
  const failed = outcome(deadlines.within(Promise.reject(refused), "Redis did not answer"));
  const answered = outcome(deadlines.within(Promise.resolve(7), "Redis did not answer"));
  await timers.tick(1_000);
  assert.equal(failed.error, refused);
  assert.equal(answered.value, 7);
  assert.equal(answered.error, undefined);
  deadlines.close();
});

Deno.test("close() clears the shared timer", () => {
  const timers = new FakeTimers();
  const deadlines = new CommandDeadlines(timers, 300);
  deadlines.within(new Promise(() => {}), "Redis did not answer");
  assert.equal(timers.pending, 1);
  deadlines.close();
  assert.equal(timers.pending, 0);
});
