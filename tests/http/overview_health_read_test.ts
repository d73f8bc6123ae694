/**
 * The overview reads a task's event stream for `noProgress` only when the
 * job a worker takes next has waited past `health.maxIdleMs`: before that
 * no job waited long enough to say workers made no progress, and at 1,000
 * tasks the read was 5 × the overview (tests/bench/overview_health.ts).
 * Counted by Redis itself (`INFO commandstats`, commands inside scripts
 * included).
 */

import assert from "node:assert/strict";
import { createBoard } from "../../mod.ts";
import { createRedisSource } from "../../src/source/redis/mod.ts";
import { taskKeys } from "../../src/source/wire/keys.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { writeJob } from "../helpers/wire_writer.ts";

const MINUTE = 60_000;

/** Calls of one command Redis ran so far. */
async function callsOf(client: Awaited<ReturnType<typeof connectClient>>, command: string) {
  const info = String(await client.sendCommand(["INFO", "commandstats"]));
  return Number(info.match(new RegExp(`^cmdstat_${command}:calls=(\\d+)`, "m"))?.[1] ?? 0);
}

Deno.test("the overview reads the event stream only of tasks whose next job waited past the idle limit", async () => {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  const source = createRedisSource({ url: redis.url });
  const board = createBoard(source, { health: { maxIdleMs: 5 * MINUTE } });
  try {
    // Another board leads and keeps no live state: this one reads every task itself.
    await client.set("taskora:board:lease:board", "the-leader", { PX: 3_600_000 });
    const now = Date.now();
    // Both streams: a take an hour ago, then a dispatch nobody took.
    for (const [task, waitedMs] of [["fresh", 10_000], ["stuck", 10 * MINUTE]] as const) {
      const { events } = taskKeys(task);
      await client.sendCommand([
        "XADD",
        events,
        `${now - 60 * MINUTE}-0`,
        "event",
        "active",
        "jobId",
        "old",
      ]);
      await writeJob(client, { task, state: "waiting", ts: now - waitedMs });
    }
    const read = async () =>
      await (await board.fetch(new Request("http://x/board/api/overview"))).json();
    await read(); // discovery and the scripts' first load
    const before = await callsOf(client, "xrevrange");
    const { tasks } = await read();
    assert.equal(
      await callsOf(client, "xrevrange") - before,
      1,
      "one stream read: the stuck task's",
    );
    const health = Object.fromEntries(
      tasks.map((
        task: { name: string; health: { noProgress: boolean } },
      ) => [task.name, task.health]),
    );
    assert.equal(health.stuck.noProgress, true);
    assert.match(health.stuck.reason, /none taken for 1 h/);
    // Its job waited 10 s: nothing says its workers stopped (they may have had nothing to do).
    assert.equal(health.fresh.noProgress, false);
  } finally {
    await board.close();
    await source.close();
    await client.close();
    await redis.stop();
  }
});
