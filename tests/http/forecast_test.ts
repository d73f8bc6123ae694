/**
 * `GET /tasks/{task}/forecast` on a board whose clock the test moves: the
 * leader samples every task's backlog once a minute, and the forecast
 * derives arrivals from the jobs finished since a sample plus the
 * backlog's change (taskora counts no dispatches).
 */

import assert from "node:assert/strict";
import { createBoardOn } from "../../src/board.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import { epochClock } from "../../src/timers.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";

const MINUTE = 60_000;

Deno.test("the forecast drains, then grows, from the leader's backlog samples; a window with no sample says so", async () => {
  const timers = new FakeTimers();
  const source = createMemorySource({ now: epochClock(timers) });
  const { store } = source;
  const board = createBoardOn(timers, source);
  const forecast = async () => {
    const response = await board.fetch(
      new Request("http://localhost/board/api/tasks/mail/forecast"),
    );
    assert.equal(response.status, 200);
    return await response.json();
  };
  let next = 0;
  const dispatch = (n: number) => {
    for (let i = 0; i < n; i++) store.enqueue("mail", { id: `job-${next++}`, data: {} });
  };
  const finish = (n: number) => {
    for (let i = 0; i < n; i++) store.complete("mail", store.claim("mail")!.id, "ok");
  };
  try {
    dispatch(100);
    await timers.tick(MINUTE); // the sample of this minute: 100
    finish(50);
    dispatch(20);
    await timers.tick(10 * MINUTE);

    const first = await forecast();
    assert.equal(first.backlog, 70);
    const [ten, hour] = first.windows;
    assert.equal(ten.minutes, 10);
    assert.equal(ten.backlogThen, 100);
    assert.equal(ten.finished, 50);
    assert.equal(ten.arrived, 20, "50 finished + 70 left - 100 then");
    const span = (first.readAt - ten.from) / MINUTE;
    assert.ok(span >= 10 && span < 11, `span ${span}`);
    assert.equal(ten.completionRate, 50 / span);
    assert.deepEqual(ten.outlook, {
      kind: "drains",
      inMs: Math.round((70 / (30 / span)) * MINUTE),
    });
    assert.equal(hour.minutes, 60);
    assert.match(hour.missing, /no backlog sample from 60 min ago/);

    dispatch(60);
    await timers.tick(50 * MINUTE);
    const later = await forecast();
    assert.equal(later.backlog, 130);
    const [tenLater, hourLater] = later.windows;
    // Nothing arrived or finished in the last ten minutes.
    assert.deepEqual([tenLater.backlogThen, tenLater.arrived, tenLater.outlook], [130, 0, {
      kind: "steady",
    }]);
    // Over the hour: 100 then, 50 finished, 130 now: 80 arrived, growing by 30 an hour.
    assert.deepEqual([hourLater.backlogThen, hourLater.finished, hourLater.arrived], [100, 50, 80]);
    const hourSpan = (later.readAt - hourLater.from) / MINUTE;
    assert.equal(hourLater.outlook.kind, "growing");
    assert.ok(Math.abs(hourLater.outlook.perMinute - 30 / hourSpan) < 1e-9);

    const missing = await board.fetch(
      new Request("http://localhost/board/api/tasks/no-such-task/forecast"),
    );
    assert.equal(missing.status, 404);
    assert.equal((await missing.json()).code, "TASK_NOT_FOUND");
  } finally {
    await board.close();
  }
});
