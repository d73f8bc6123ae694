/**
 * The SSE frame `alerts` on two boards on one real Redis: the board that
 * leads evaluates and sends its clients the firing counts when they change;
 * the other learns them from the states in Redis (read while a client is
 * connected, once per stats interval) and sends them too. A client gets the
 * last frame as it connects.
 */

import assert from "node:assert/strict";
import { createBoardOn } from "../../src/board.ts";
import type { AlertsFile } from "../../src/contract/alerts.ts";
import type { AlertsFramePayload } from "../../src/contract/events.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import { RedisTaskSource } from "../../src/source/redis/mod.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { readFixture } from "../helpers/fixture.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { webhookReceiver } from "../helpers/webhook_receiver.ts";
import { writeJob } from "../helpers/wire_writer.ts";
import { dataOf, type Frame, isEvent, openStream } from "./sse_client.ts";

const EVERY_MS = 5000;
const STATS_MS = 1000;

/** Alerts told to `url` when `task` has more than 2 failed jobs. */
function failingRule(url: string, task: string): AlertsFile {
  return {
    evaluateEvery: EVERY_MS,
    sinks: [{ name: "ops", type: "webhook", url, secret: "s".repeat(32) }],
    rules: [{ name: "mail failing", kind: "failed", tasks: [task], threshold: 2, sinks: ["ops"] }],
  };
}

Deno.test("both boards on one Redis send the alerts frame: the leader's pass, the follower from the stored states", async () => {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  const hook = webhookReceiver();
  const timers = new FakeTimers();
  for (let i = 0; i < 3; i++) {
    await writeJob(client as never, { task: "mail", state: "failed", ts: Date.now() - 1000 });
  }
  const sources = [0, 1].map(() => new RedisTaskSource({ url: redis.url }, timers));
  const boards = sources.map((source) =>
    createBoardOn(timers, source, {
      statsInterval: STATS_MS,
      alerts: failingRule(hook.url, "mail"),
    })
  );
  const streams = await Promise.all(
    boards.map((board) => openStream(board.fetch, "http://board.test/board/api/events")),
  );
  const last = (frames: Frame[]) =>
    dataOf<AlertsFramePayload>(frames.filter(isEvent("alerts")).at(-1)!);
  const firingOn = (board: number, firing: number) => {
    const frames = streams[board].frames.filter(isEvent("alerts"));
    return frames.length > 0 && last(frames).firing === firing;
  };
  try {
    await waitFor(async () => (await timers.tick(STATS_MS), firingOn(0, 1) && firingOn(1, 1)), {
      what: "the alerts frame on both boards",
    });
    for (const stream of streams) {
      const frame = last(stream.frames);
      assert.deepEqual([frame.firing, frame.byTask], [1, { mail: 1 }]);
      assert.equal(typeof frame.asOf, "number");
    }
    // A client connecting now gets the last frame at once.
    const late = await openStream(boards[1].fetch, "http://board.test/board/api/events");
    try {
      const frame = dataOf<AlertsFramePayload>(await late.waitFor(isEvent("alerts")));
      assert.deepEqual([frame.firing, frame.byTask], [1, { mail: 1 }]);
    } finally {
      await late.close();
    }
    // The failures go: the next pass resolves, and both boards say so.
    await client.del("taskora:{mail}:failed");
    await waitFor(async () => (await timers.tick(STATS_MS), firingOn(0, 0) && firingOn(1, 0)), {
      what: "the resolved frame on both boards",
    });
    assert.deepEqual(last(streams[1].frames).byTask, {});
    // Sent as evaluations come: the counts went from firing to resolved, never back.
    for (const stream of streams) {
      const counts = stream.frames.filter(isEvent("alerts")).map((f) =>
        dataOf<AlertsFramePayload>(f).firing
      );
      assert.deepEqual(counts.filter((n, i) => n !== counts[i - 1]), [1, 0]);
    }
  } finally {
    for (const stream of streams) await stream.close();
    for (const board of boards) await board.close();
    for (const source of sources) await source.close();
    await client.close();
    await hook.close();
    await redis.stop();
  }
});

Deno.test("while the counts stay, each evaluation's frame says when it was: the top bar's age is true", async () => {
  const hook = webhookReceiver();
  const source = createMemorySource({ seed: readFixture() });
  const timers = new FakeTimers();
  const board = createBoardOn(timers, source, {
    statsInterval: STATS_MS,
    alerts: failingRule(hook.url, "send-email"),
  });
  const stream = await openStream(board.fetch, "http://board.test/board/api/events");
  const frames = () => stream.frames.filter(isEvent("alerts")).map(dataOf<AlertsFramePayload>);
  try {
    await waitFor(async () => (await timers.tick(EVERY_MS), frames().length >= 3), {
      what: "three evaluations' frames, the same alert firing throughout",
    });
    const [first, second, third] = frames();
    assert.deepEqual([first.firing, second.firing, third.firing], [1, 1, 1]);
    assert.ok(first.asOf < second.asOf && second.asOf < third.asOf, "each as of its evaluation");
  } finally {
    await stream.close();
    await board.close();
    await source.close();
    await hook.close();
  }
});
