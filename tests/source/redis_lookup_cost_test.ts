/**
 * What finding one job by id costs the Redis source, on a real
 * redis-server with 20 tasks: one cheap probe per task, pipelined, then the
 * one job's keys, pipelined. Counted in Redis commands (`INFO commandstats`
 * deltas) and in pipelines sent (round trips).
 */

import assert from "node:assert/strict";
import { createRedisSource, type RedisTaskSource } from "../../src/source/redis/mod.ts";
import { taskKeys } from "../../src/source/wire/keys.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { writeJob } from "../helpers/wire_writer.ts";

type Client = Awaited<ReturnType<typeof connectClient>>;

const TASKS = Array.from({ length: 20 }, (_, i) => `task-${String(i).padStart(2, "0")}`);
/** The job lives in the last task searched: every other task is probed first. */
const HOME = TASKS[TASKS.length - 1];

/** Commands Redis ran, all kinds but INFO (the counting itself). */
async function commandsRun(client: Client): Promise<number> {
  const info = String(await client.sendCommand(["INFO", "commandstats"]));
  let total = 0;
  for (const [, name, calls] of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) {
    if (name !== "info") total += Number(calls);
  }
  return total;
}

/** What `work` cost: Redis commands and round trips (pipelines the source sent). */
async function cost(
  source: RedisTaskSource,
  client: Client,
  work: () => Promise<unknown>,
): Promise<{ commands: number; roundTrips: number }> {
  const connection = source.connection;
  const send = connection.pipelineSettled;
  let roundTrips = 0;
  connection.pipelineSettled = (commands) => {
    roundTrips++;
    return send.call(connection, commands);
  };
  try {
    const before = await commandsRun(client);
    await work();
    return { commands: (await commandsRun(client)) - before, roundTrips };
  } finally {
    connection.pipelineSettled = send;
  }
}

/** Runs `fn` with 20 named tasks, one delayed job with a log in the last, and a source. */
async function withTasks(
  fn: (ctx: { source: RedisTaskSource; client: Client; id: string }) => Promise<void>,
): Promise<void> {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  const source = createRedisSource({ url: redis.url, tasks: TASKS });
  try {
    const id = await writeJob(client, { task: HOME, state: "delayed", delay: 60_000 });
    const logKey = `${taskKeys(HOME).jobPrefix}${id}:logs`;
    await client.sendCommand([
      "RPUSH",
      logKey,
      JSON.stringify({ level: "info", message: "hi", timestamp: 1 }),
    ]);
    // Connecting and the wire-version check are not the lookup's cost.
    await source.listTasks();
    await fn({ source, client, id });
  } finally {
    await source.close();
    await client.close().catch(() => {});
    await redis.stop();
  }
}

Deno.test("getJob() probes each task with one command, then reads only the job's task", async () => {
  await withTasks(async ({ source, client, id }) => {
    let job: Awaited<ReturnType<RedisTaskSource["getJob"]>> = null;
    // Loading the stream script into Redis on first use is not the lookup's cost.
    await source.getJob(id);
    const spent = await cost(source, client, async () => job = await source.getJob(id));
    assert.equal(job!.task, HOME);
    assert.equal(job!.state, "delayed");
    assert.equal(typeof job!.runAt, "number", "the delayed score is read");
    assert.equal(job!.logCount, 1);
    // One probe per task, then HGETALL, ZSCORE, LRANGE and LLEN of the one job, and the events
    // stream's ends (for a trimmed timeline): one EVALSHA running EXISTS and XINFO STREAM.
    assert.deepEqual(spent, { commands: TASKS.length + 4 + 3, roundTrips: 2 });
  });
});

Deno.test("getJob() of an unknown id costs one probe per task and one round trip", async () => {
  await withTasks(async ({ source, client }) => {
    const spent = await cost(source, client, async () => {
      assert.equal(await source.getJob("no-such-job"), null);
    });
    assert.deepEqual(spent, { commands: TASKS.length, roundTrips: 1 });
  });
});

Deno.test("getJobLogs() probes each task with one command, then reads only the job's log", async () => {
  await withTasks(async ({ source, client, id }) => {
    let page: Awaited<ReturnType<RedisTaskSource["getJobLogs"]>> = null;
    const spent = await cost(source, client, async () => page = await source.getJobLogs(id, 0, 50));
    assert.equal(page!.total, 1);
    assert.equal(page!.logs[0].message, "hi");
    // One probe per task, then LRANGE and LLEN of the one log.
    assert.deepEqual(spent, { commands: TASKS.length + 2, roundTrips: 2 });
  });
});
