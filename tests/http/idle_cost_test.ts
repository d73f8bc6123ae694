/**
 * What an idle board costs Redis (issue 35): no browser, no alert rule, and
 * no request since the one 95 s ago (its minute, after the 30 s the
 * overview's need kept the change feed running). Counted by Redis itself
 * (`INFO commandstats`, the commands scripts run included) over ten minutes
 * of fake time: the board competes for its leases and sweeps the bulk
 * operations (a script each), looks whether anyone needs the feed or the
 * kept throughput (an EXISTS each) and whether its live state is fresh for
 * the backlog sample (one HMGET a minute), and reads nothing of the tasks.
 * Before, its own background reads (the backlog sampler's minute) counted
 * as someone looking at it, so discovery's SCANs and the retrying
 * reconcile's HGETs went on for as long as it ran (39–71 commands/s at 1M
 * keys, `tests/bench/idle_board.ts`), and the sampler read every task.
 */

import assert from "node:assert/strict";
import { createBoardOn } from "../../src/board.ts";
import { RedisTaskSource } from "../../src/source/redis/mod.ts";
import { commandsOf, totalCalls } from "../helpers/command_stats.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { writeJob } from "../helpers/wire_writer.ts";

const TASKS = ["alpha", "beta", "gamma"];
/**
 * What reads the keyspace or a task's keys: discovery's SCANs, the
 * reconcile's ZSCAN and HGETs, counts, queue ends, minute counters and
 * streams. (HMGET and ZRANGE read the board's own keys too: left out.)
 */
const KEYSPACE_READS = [
  "scan",
  "zscan",
  "hget",
  "zcard",
  "llen",
  "lindex",
  "lrange",
  "zcount",
  "mget",
  "xrevrange",
];

Deno.test("an idle board (no browser, no rule, no request for 95 s) reads no task and no keyspace", async () => {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  const timers = new FakeTimers();
  const source = new RedisTaskSource({ url: redis.url, commandTimeoutMs: 30_000 }, timers);
  const board = createBoardOn(timers, source, { history: false });
  try {
    const now = Date.now();
    for (const task of TASKS) {
      for (let i = 0; i < 5; i++) {
        await writeJob(client as never, { task, state: "delayed", delay: 60_000 + i });
        await writeJob(client as never, { task, state: "retrying", runAt: now + 60_000 + i });
        await writeJob(client as never, { task, state: "completed", finishedOn: now - i });
      }
    }
    const response = await board.fetch(new Request("http://127.0.0.1/board/api/overview"));
    assert.equal(response.status, 200);
    await response.body?.cancel();
    // The request's minute (the board is watched, its passes run) and the overview's need of the
    // change feed (30 s), whose reads count as looking too: quiet a minute after the feed's last.
    // Each second waits for a round trip of its own: Redis answers in order, so what the board
    // sent in that second is answered first. Fake time does not wait for Redis: once, in the
    // redis group, the count was 3.06 commands/s (1.9-2.0 alone), ~1.5x of each background
    // command, as if a pass of the warm-up ended inside the counted ten minutes.
    for (let t = 0; t < 95_000; t += 1_000) {
      await timers.tick(1_000);
      await client.ping();
    }
    const minutes = 10;
    const calls = await commandsOf(client, async () => {
      for (let t = 0; t < minutes * 60_000; t += 1_000) await timers.tick(1_000);
    });
    const perSecond = totalCalls(calls) / (minutes * 60);
    const seen = JSON.stringify(Object.fromEntries(calls));
    assert.equal(totalCalls(calls, KEYSPACE_READS), 0, seen);
    // The leases, the operations' sweep and the looks for a need: about 2 commands/s.
    assert.ok(perSecond <= 3, `${perSecond} commands/s: ${seen}`);
  } finally {
    await board.close();
    await source.close();
    await client.close();
    await redis.stop();
  }
});
