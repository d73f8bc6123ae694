/**
 * The job history on a board without Redis (the live demo, a test's memory
 * source): the memory store's stream entries carry ids as taskora's do, the
 * source reads each ending job's fields, and the board records the history
 * in the process, so the History pages work before anyone brings a Redis.
 */

import assert from "node:assert/strict";
import { createBoardOn } from "../../src/board.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import type { TaskEvent } from "../../src/source/types.ts";
import { epochClock } from "../../src/timers.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";

/** A board over a memory source with the history on, on a clock the test moves. */
function recordingBoard() {
  const timers = new FakeTimers();
  const source = createMemorySource({ now: epochClock(timers) });
  const board = createBoardOn(timers, source, { history: true });
  const get = async (path: string) => {
    const response = await board.fetch(new Request(`http://localhost/board/api${path}`));
    return { status: response.status, body: await response.json() };
  };
  return { timers, source, store: source.store, board, get };
}

Deno.test("a memory source's events carry stream ids, each after the last of its task", async () => {
  const timers = new FakeTimers();
  const source = createMemorySource({ now: epochClock(timers) });
  const seen: TaskEvent[] = [];
  const off = source.subscribe((event) => seen.push(event));
  source.store.enqueue("mail", { id: "a", data: {} });
  source.store.enqueue("mail", { id: "b", data: {} });
  await timers.tick(5);
  source.store.enqueue("mail", { id: "c", data: {} });
  await Promise.resolve();
  off();
  const ids = seen.map((event) => event.id!);
  assert.equal(ids.length, 3);
  const [[ms0, seq0], [ms1, seq1], [ms2, seq2]] = ids.map((id) => id.split("-").map(Number));
  assert.deepEqual([ms1, seq1], [ms0, seq0 + 1], "two entries of one ms: the sequence counts up");
  assert.deepEqual([ms2, seq2], [ms0 + 5, 0]);
  await source.close();
});

Deno.test("a board over a memory source records the history: a job's attempts, each with its error, and its input's size", async () => {
  const { timers, store, board, get } = recordingBoard();
  try {
    // Someone watches (the recorder needs nobody, but the demo has a browser): the feed runs.
    await get("/overview");
    store.enqueue("mail", { id: "ok-1", data: { to: "ada" }, maxAttempts: 2 });
    store.enqueue("mail", { id: "flaky-1", data: { to: "bob" }, maxAttempts: 2 });
    await timers.tick(10);
    store.complete("mail", store.claim("mail")!.id, { sent: true });
    await timers.tick(10);
    store.fail("mail", store.claim("mail")!.id, "smtp timeout", 0);
    await timers.tick(10);
    store.promoteDue("mail");
    store.complete("mail", store.claim("mail")!.id, { sent: true });
    await timers.tick(5_000);

    const { status, body } = await get("/history/jobs?task=mail");
    assert.equal(status, 200);
    const jobs = body.jobs as { id: string; state: string; attempts: unknown[] }[];
    assert.deepEqual(jobs.map((job) => [job.id, job.state, job.attempts.length]).sort(), [
      ["flaky-1", "completed", 2],
      ["ok-1", "completed", 1],
    ]);

    const flaky = await get("/history/tasks/mail/jobs/flaky-1");
    assert.equal(flaky.status, 200);
    const attempts = flaky.body.attempts as { outcome: string; error: string | null }[];
    assert.deepEqual(attempts.map((attempt) => [attempt.outcome, attempt.error]), [
      ["retrying", "smtp timeout"],
      ["completed", null],
    ]);
    assert.equal(flaky.body.dataBytes, 12, '{"to":"bob"}');
  } finally {
    await board.close();
  }
});
