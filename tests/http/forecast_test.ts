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

/** A board over a memory source, its leader sampling a minute after it starts and every minute on. */
function sampledBoard() {
  const timers = new FakeTimers();
  const clock = epochClock(timers);
  const source = createMemorySource({ now: clock });
  const board = createBoardOn(timers, source);
  const forecast = async () => {
    const response = await board.fetch(
      new Request("http://localhost/board/api/tasks/mail/forecast"),
    );
    assert.equal(response.status, 200);
    return await response.json();
  };
  return { timers, clock, store: source.store, board, forecast };
}

Deno.test("the forecast drains, then grows, from the leader's backlog samples; a window with no sample says so", async () => {
  const { timers, store, board, forecast } = sampledBoard();
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

Deno.test("a window runs from its sample's time, not its minute's start: jobs finished in that minute before the sample are not counted", async () => {
  const { timers, clock, store, board, forecast } = sampledBoard();
  let next = 0;
  const dispatch = (n: number) => {
    for (let i = 0; i < n; i++) store.enqueue("mail", { id: `job-${next++}`, data: {} });
  };
  const finish = (n: number) => {
    for (let i = 0; i < n; i++) store.complete("mail", store.claim("mail")!.id, "ok");
  };
  // Halfway between the start of the sample's minute and the sample (a minute from now).
  const inSampleMinute = MINUTE - Math.ceil((clock() % MINUTE) / 2);
  try {
    dispatch(100);
    await timers.tick(inSampleMinute);
    finish(20); // before the sample, in its minute
    await timers.tick(MINUTE - inSampleMinute); // the sample: 80 left
    const sampledAt = clock();
    finish(30);
    dispatch(10);
    await timers.tick(10 * MINUTE);

    const { backlog, readAt, windows: [ten] } = await forecast();
    assert.equal(backlog, 60);
    // The board's clock and the test's were started a few ms apart.
    assert.ok(Math.abs(ten.from - sampledAt) < 1_000, "the window starts at the sample");
    assert.equal(readAt - ten.from, 10 * MINUTE);
    assert.equal(ten.backlogThen, 80);
    assert.equal(ten.finished, 30, "the 20 finished before the sample left its backlog already");
    assert.equal(ten.arrived, 10, "30 finished + 60 left - 80 then");
    assert.equal(ten.completionRate, 3);
    assert.equal(ten.arrivalRate, 1);
    assert.deepEqual(ten.outlook, { kind: "drains", inMs: 30 * MINUTE });
  } finally {
    await board.close();
  }
});

Deno.test("jobs due after the forecast's horizon are not backlog: jobs delayed 3 h leave an emptied wait list empty", async () => {
  const { timers, store, board, forecast } = sampledBoard();
  try {
    for (let i = 0; i < 5; i++) {
      store.enqueue("mail", { id: `later-${i}`, data: {}, delay: 3 * 60 * MINUTE });
    }
    for (let i = 0; i < 40; i++) store.enqueue("mail", { id: `now-${i}`, data: {} });
    await timers.tick(MINUTE); // the sample: 40 can drain, 5 are due in 3 h
    for (let i = 0; i < 20; i++) store.complete("mail", store.claim("mail")!.id, "ok");
    await timers.tick(10 * MINUTE);

    const half = await forecast();
    assert.equal(half.backlog, 20);
    assert.equal(half.dueLater, 5);
    assert.equal(half.windows[0].backlogThen, 40);
    assert.equal(half.windows[0].arrived, 0);
    assert.deepEqual(half.windows[0].outlook, { kind: "drains", inMs: 10 * MINUTE });

    for (let i = 0; i < 20; i++) store.complete("mail", store.claim("mail")!.id, "ok");
    const emptied = await forecast();
    assert.equal(emptied.backlog, 0);
    assert.deepEqual(emptied.windows[0].outlook, { kind: "empty" });

    // Within the hour's horizon they count again: they arrive as they come near.
    await timers.tick(2 * 60 * MINUTE + MINUTE);
    const near = await forecast();
    assert.equal(near.backlog, 5);
    assert.equal(near.dueLater, 0);
  } finally {
    await board.close();
  }
});
