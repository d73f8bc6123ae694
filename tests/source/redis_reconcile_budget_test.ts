/**
 * What the retrying reconcile spends of Redis (issue 35): its first count
 * of every task read each delayed job's state at 40 commands a second, the
 * most of what one open browser at 1,000 tasks cost with nothing moving
 * (35–40 of 60 commands/s for the first minutes, `tests/bench/open_browser.ts`),
 * and of what an idle board cost in the minute after a request. Counted by
 * Redis itself; no time is measured: the budget's bucket holds one second's
 * commands, so a reconcile just woken spends at most that, then waits (the
 * budget on the wall clock; the source's passes on fake timers).
 */

import assert from "node:assert/strict";
import { createRedisSource, RedisTaskSource } from "../../src/source/redis/mod.ts";
import { DEFAULT_RECONCILE_COMMANDS_PER_SECOND } from "../../src/source/redis/retrying_reconcile.ts";
import { commandsRun, totalCalls } from "../helpers/command_stats.ts";
import { FakeTimers, settle } from "../helpers/fake_timers.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { writeJob } from "../helpers/wire_writer.ts";

const TASKS = Array.from({ length: 10 }, (_, i) => `task-${i}`);
/** What the reconcile sends: a ZSCAN of each delayed set, an HGET of each member's state. */
const RECONCILE = ["zscan", "hget"];

Deno.test("a first count of every task spends at most the reconcile's budget of a second before it waits", async () => {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  // The source's passes on a clock the test moves: the reconcile's first pass after the wake
  // comes at its interval (15 s), which the wall clock made this test wait out.
  const timers = new FakeTimers();
  const source = new RedisTaskSource({ url: redis.url }, timers);
  try {
    const now = Date.now();
    for (const task of TASKS) {
      for (let i = 0; i < 4; i++) {
        await writeJob(client as never, { task, state: "delayed", delay: 60_000 + i });
        await writeJob(client as never, { task, state: "retrying", runAt: now + 60_000 + i });
      }
    }
    // Every task's first count: a ZSCAN and 8 HGETs each, 90 commands in all.
    const before = totalCalls(await commandsRun(client), RECONCILE);
    await source.getStats(TASKS); // the counts are looked at: the reconcile wakes
    const spent = async () => totalCalls(await commandsRun(client), RECONCILE) - before;
    await waitFor(async () => {
      await timers.tick(1_000);
      return await spent() > 0;
    }, { what: "the reconcile to start" });
    // Until its spending stands still: the budget made it wait.
    let last = -1;
    for (let still = 0; still < 5;) {
      await settle();
      const now = await spent();
      still = now === last ? still + 1 : 0;
      last = now;
    }
    // The bucket's second, and the members of the step under way (the budget less one).
    const bound = 2 * DEFAULT_RECONCILE_COMMANDS_PER_SECOND;
    assert.ok(last <= bound, `${last} commands before the first wait (at most ${bound})`);
    assert.equal(source.retryingAsOf(TASKS).get("task-9"), null, "not counted yet: it waits");
  } finally {
    await source.close();
    await client.close();
    await redis.stop();
  }
});

Deno.test("a reconcile at its budget of 2 commands/s walks a big delayed set in steps, not a ZSCAN per member", async () => {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  const source = createRedisSource({ url: redis.url, tasks: ["big"] });
  try {
    // Past 128 members the set is a skiplist: ZSCAN's COUNT is then what a call returns.
    for (let i = 0; i < 400; i++) {
      await writeJob(client as never, { task: "big", state: "delayed", delay: 60_000 + i });
    }
    const before = await commandsRun(client);
    await source.reconcileRetrying(); // the same steps, unpaced: whoever asks waits for it
    const after = await commandsRun(client);
    const ran = (name: string) => (after.get(name) ?? 0) - (before.get(name) ?? 0);
    assert.ok(ran("hget") >= 400, `every member's state read: ${ran("hget")}`);
    // Before, a step of the budget less one: one member, a ZSCAN per HGET (400 ZSCANs).
    assert.ok(ran("zscan") <= 400 / 10, `${ran("zscan")} ZSCANs for 400 members`);
  } finally {
    await source.close();
    await client.close();
    await redis.stop();
  }
});
