/**
 * Discovery's walks of the keyspace (issue 35): a SCAN per 1,000 keys of
 * the whole keyspace each pass, while the board is watched, whatever
 * changed. At 158,000 keys (1,000 tasks) that was 2.6 SCANs/s of one open
 * browser's cost with nothing moving, at 1M keys 10 a second. A pass now
 * counts the keys without a TTL first (one INFO) and walks only when they
 * changed. Counted by Redis itself, on fake timers.
 */

import assert from "node:assert/strict";
import { RedisTaskSource } from "../../src/source/redis/mod.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { writeJob } from "../helpers/wire_writer.ts";

const TASKS = ["alpha", "beta", "gamma"];

Deno.test("discovery walks the keyspace again only when keys came or went for good: a new task is still found", async () => {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  const timers = new FakeTimers();
  const source = new RedisTaskSource({ url: redis.url, discoveryIntervalMs: 10_000 }, timers);
  // A browser's event stream: the board is watched, discovery's passes go on.
  const off = source.subscribe(() => {});
  /** The commands Redis ran of `name`, less the INFO commandstats this test sends. */
  let asked = 0;
  const calls = async (name: string) => {
    asked++;
    const info = String(await client.sendCommand(["INFO", "commandstats"]));
    const calls = Number(info.match(new RegExp(`^cmdstat_${name}:calls=(\\d+)`, "m"))?.[1] ?? 0);
    return name === "info" ? calls - asked : calls;
  };
  try {
    for (const task of TASKS) await writeJob(client as never, { task, state: "waiting" });
    assert.deepEqual(await source.listTasks(), TASKS);
    const scans = await calls("scan");
    // Ten minutes, nothing written: a pass at least every minute (the list's freshness).
    for (let minute = 0; minute < 9; minute++) {
      const looks = (await calls("info")) + (await calls("scan"));
      await waitFor(async () => {
        await timers.tick(10_000);
        return (await calls("info")) + (await calls("scan")) > looks;
      }, { what: `discovery's pass in minute ${minute}` });
    }
    assert.equal(await calls("scan") - scans, 0, "no walk of a keyspace that did not change");
    // A new task's first keys: the next pass walks and finds it.
    await writeJob(client as never, { task: "delta", state: "waiting" });
    await waitFor(async () => {
      await timers.tick(10_000);
      return (await source.listTasks()).includes("delta");
    }, { what: "the new task to be found" });
    assert.ok(await calls("scan") > scans, "found by a walk");
  } finally {
    off();
    await source.close();
    await client.close();
    await redis.stop();
  }
});

Deno.test("the change feed's first pass writes no key that makes discovery walk the keyspace again", async () => {
  // The leader's first pass creates the feed's ids and live state: without a TTL they counted
  // among the lasting keys, and the next discovery pass walked the whole keyspace again (1,000
  // SCANs at 1M keys, in an idle board's first minute).
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  const timers = new FakeTimers();
  const source = new RedisTaskSource({ url: redis.url, discoveryIntervalMs: 10_000 }, timers);
  const off = source.subscribe(() => {});
  /** Commands Redis ran of `name`: its INFOs are discovery's looks at the keyspace. */
  const calls = async (name: "info" | "scan") => {
    const info = String(await client.sendCommand(["INFO", "commandstats"]));
    return Number(info.match(new RegExp(`^cmdstat_${name}:calls=(\\d+)`, "m"))?.[1] ?? 0);
  };
  try {
    for (const task of TASKS) await writeJob(client as never, { task, state: "waiting" });
    assert.deepEqual(await source.listTasks(), TASKS);
    const walked = await calls("scan");
    // What the leader's first pass writes once it read every task.
    const feed = source.boardStore.feed;
    await feed.writeLiveState({ asOf: timers.now(), rows: [] });
    await feed.saveFeedPositions(new Map(TASKS.map((task) => [task, "1-0"])));
    for (const pass of [1, 2]) {
      // Each wait's own INFOs (one per look) count too: a pass is one INFO more than those.
      const looks = await calls("info");
      let asked = 1;
      await waitFor(async () => {
        await timers.tick(10_000);
        return (await calls("info")) - asked++ > looks;
      }, { what: `discovery's pass ${pass} after the feed's first write` });
    }
    assert.equal(await calls("scan") - walked, 0, "no walk: no task can have got its first key");
  } finally {
    off();
    await source.close();
    await client.close();
    await redis.stop();
  }
});
