/**
 * What the scaling series cost a scrape, counted in Redis (`INFO
 * commandstats`), at 20 and at 1,000 tasks: the same commands at both, as
 * they are read for at most 20 tasks; and the scrape of 1,000 tasks names
 * at most 20 tasks in them. The whole scrape's counts, before and after
 * the series, are in `docs/cost.md`.
 */

import assert from "node:assert/strict";
import { Registry } from "prom-client";
import { createBoard } from "../../mod.ts";
import { createScalingSeries, SCALING_SERIES_TASKS } from "../../src/metrics/scaling.ts";
import { createRedisSource, RedisTaskSource } from "../../src/source/redis/mod.ts";
import { commandsOf, totalCalls } from "../helpers/command_stats.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { fillRedis } from "../helpers/wire_writer.ts";

/** The scaling series' commands and a whole scrape's, at `tasks` tasks of 8 jobs each. */
async function costAt(tasks: number) {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  try {
    // Filled before the source and the board connect: 8,000 jobs written at once kept the event
    // loop their handshakes run on busy past the 2 s connect timeout under load, and every call
    // then failed fast while they reconnected ("Redis is not reachable (reconnecting)").
    await fillRedis(client, { jobs: tasks * 8, tasks });
    // INFO commandstats counts every client's commands, so while the series' count runs no
    // other client may send one: the series' source turns its lease on a clock that stands
    // still (a lease of 20 ms, whose renewals on the wall clock would fall into every count),
    // and the board is made once that count is done. Replies get 30 s, not the 2 s default, as
    // a guard against a hung Redis: one trip of 1,000 tasks (the counts here, the board
    // leader's pass) took longer than that under load, and the scrape then named no task.
    const source = new RedisTaskSource(
      { url: redis.url, commandTimeoutMs: 30_000, leaseMs: 20 },
      new FakeTimers(),
    );
    let scraped: { source: RedisTaskSource; board: ReturnType<typeof createBoard> } | null = null;
    try {
      const names = await source.listTasks();
      const stats = await source.getStats(names);
      const series = createScalingSeries(new Registry(), source, source.boardStore);
      await series.read(names, stats, Date.now()); // scripts loaded, connection ready
      const scaling = await commandsOf(client, () => series.read(names, stats, Date.now()));
      const boardSource = createRedisSource({ url: redis.url, commandTimeoutMs: 30_000 });
      const board = createBoard(boardSource);
      scraped = { source: boardSource, board };
      const scrape = () => board.fetch(new Request("http://localhost/board/metrics"));
      await (await scrape()).text(); // the latency sampler's first reads
      let text = "";
      const whole = await commandsOf(client, async () => text = await (await scrape()).text());
      const backlogTasks = new Set(
        [...text.matchAll(/^queue_board_task_backlog\{task="([^"]+)"/gm)].map((m) => m[1]),
      );
      return { scaling, whole: totalCalls(whole), backlogTasks: backlogTasks.size };
    } finally {
      await scraped?.board.close();
      await scraped?.source.close();
      await source.close();
    }
  } finally {
    client.destroy();
    await redis.stop();
  }
}

Deno.test("the scaling series read the same commands at 20 and at 1,000 tasks", async () => {
  const small = await costAt(20);
  const large = await costAt(1000);
  console.log(
    `scaling series: ${totalCalls(small.scaling)} commands at 20 and 1,000 tasks; ` +
      `whole scrape: ${small.whole} at 20 tasks, ${large.whole} at 1,000`,
  );
  assert.equal(small.backlogTasks, 20);
  assert.equal(large.backlogTasks, SCALING_SERIES_TASKS);
  assert.deepEqual(large.scaling, small.scaling);
});
