/**
 * What the port's refusals (`src/source/checked.ts`) cost the Redis source,
 * on a real redis-server, counted in Redis commands (`INFO commandstats`
 * deltas): a known task's check reads the cached task list and sends
 * nothing, and misses rediscover at most once per `MISS_REFRESH_MS`.
 */

import assert from "node:assert/strict";
import { checkedSource, MISS_REFRESH_MS } from "../../src/source/checked.ts";
import { RedisTaskSource } from "../../src/source/redis/mod.ts";
import { commandsOf } from "../helpers/command_stats.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { writeJob } from "../helpers/wire_writer.ts";

type Client = Awaited<ReturnType<typeof connectClient>>;

/** Runs `fn` with a job of `send-email` in Redis, a source on it, and a clock it moves by hand. */
async function withSource(
  fn: (ctx: { raw: RedisTaskSource; client: Client; clock: { now: number } }) => Promise<void>,
): Promise<void> {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  const raw = new RedisTaskSource({ url: redis.url });
  try {
    await writeJob(client, { task: "send-email", state: "failed" });
    await fn({ raw, client, clock: { now: 0 } });
  } finally {
    await raw.close();
    await client.close().catch(() => {});
    await redis.stop();
  }
}

Deno.test("a page of a known task costs the commands the read itself costs, checked or not", async () => {
  await withSource(async ({ raw, client, clock }) => {
    const source = checkedSource(raw, { now: () => clock.now });
    const read = () => raw.listJobs("send-email", "failed", 0, 10);
    const checked = () => source.listJobs("send-email", "failed", 0, 10);
    await checked(); // the first discovery and the scripts' loading, before either is counted
    const alone = await commandsOf(client, read);
    const withCheck = await commandsOf(client, checked);
    assert.ok(alone.size > 0, "the page is read");
    assert.deepEqual(withCheck, alone, "the check sent nothing of its own");
    assert.equal((await checked()).total, 1);
  });
});

Deno.test("an unknown task rediscovers at most once per interval, and finds a task made since", async () => {
  await withSource(async ({ raw, client, clock }) => {
    const source = checkedSource(raw, { now: () => clock.now });
    await source.listTasks();
    const ghost = () =>
      assert.rejects(source.listJobs("late-task", "failed", 0, 10), { code: "TASK_NOT_FOUND" });
    // A discovery pass looks at the keyspace's lasting keys (INFO), then walks it (SCAN) if they changed.
    const looks = async (work: () => Promise<unknown>) => {
      const calls = await commandsOf(client, work, { withInfo: true });
      return (calls.get("info") ?? 0) + (calls.get("scan") ?? 0);
    };

    assert.ok(await looks(ghost) > 0, "the first miss rediscovers");
    for (let i = 0; i < 5; i++) assert.equal(await looks(ghost), 0, "later misses do not");

    await writeJob(client, { task: "late-task", state: "failed" });
    clock.now += MISS_REFRESH_MS - 1;
    await ghost();
    clock.now += 1;
    assert.equal((await source.listJobs("late-task", "failed", 0, 10)).total, 1);
  });
});
