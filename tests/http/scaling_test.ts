/**
 * `GET /tasks/{task}/scaling` over a memory source on a board whose clock
 * the test moves: the arrival rate is the drain forecast's 10-minute one,
 * the run time the median of the jobs finished, and the suggestion Little's
 * law over them; a source that cannot read the backlog by kind counts its
 * waiting jobs.
 */

import assert from "node:assert/strict";
import { createBoardOn } from "../../src/board.ts";
import { suggestWorkers } from "../../src/contract/scaling.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import { epochClock } from "../../src/timers.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";

const MINUTE = 60_000;

Deno.test("the scaling answer suggests workers from the forecast's arrivals and the run time", async () => {
  const timers = new FakeTimers();
  const source = createMemorySource({ now: epochClock(timers) });
  const board = createBoardOn(timers, source);
  const { store } = source;
  let next = 0;
  const dispatch = (n: number) => {
    for (let i = 0; i < n; i++) store.enqueue("mail", { id: `job-${next++}`, data: {} });
  };
  const get = async (path: string) => {
    const response = await board.fetch(new Request(`http://localhost/board/api${path}`));
    return { status: response.status, body: await response.json() };
  };
  try {
    dispatch(100);
    await timers.tick(MINUTE); // the leader's sample of this minute: 100
    for (let minute = 0; minute < 10; minute++) {
      dispatch(30);
      for (let i = 0; i < 20; i++) {
        const job = store.claim("mail")!;
        await timers.tick(1000); // each job runs 1 s
        store.complete("mail", job.id, "ok");
      }
      await timers.tick(40_000);
    }
    const { status, body } = await get("/tasks/mail/scaling?targetWait=2m");
    assert.equal(status, 200, JSON.stringify(body));
    assert.deepEqual(body.backlog, { waiting: 200, prioritized: 0, delayed: 0, held: 0 });
    assert.equal(body.backlogTotal, 200);
    assert.equal(body.runMs, 1000);
    assert.equal(body.targetWaitMs, 120_000);
    const forecast = await get("/tasks/mail/forecast");
    const ten = forecast.body.windows[0];
    assert.equal(ten.arrived, 300, "200 finished + 200 left - 100 then");
    assert.equal(body.arrivalRate, ten.arrivalRate);
    assert.equal(body.completionRate, ten.completionRate);
    // About 30 a minute of 1 s (0.5 busy) and 200 to clear in 2 min (1.67 more): 3.
    assert.equal(body.suggestion.workers, 3);
    assert.deepEqual(
      body.suggestion,
      suggestWorkers({
        arrivalRate: ten.arrivalRate,
        runMs: 1000,
        backlog: 200,
        targetWaitMs: 120_000,
      }),
    );
    assert.equal(body.workersSeen.atLeast, 0, "no job is active: no worker is seen");
  } finally {
    await board.close();
  }
});
