/**
 * What one alert evaluation costs Redis: the snapshot read of every rule
 * kind (but newErrorGroup) over every task of the taskora fixture, counted by Redis itself
 * (`INFO commandstats`, commands run inside scripts included). docs/alerts.md
 * states the budget this pins.
 */

import assert from "node:assert/strict";
import { readSnapshot } from "../../src/alerts/snapshot.ts";
import { ALERT_KINDS } from "../../src/contract/alerts.ts";
import { createRedisSource } from "../../src/source/redis/mod.ts";
import { ruleOf } from "../helpers/alert_snapshot.ts";
import { readFixture, writeKeyspace } from "../helpers/fixture.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";

/** Commands Redis ran so far, the INFO asking it left out. */
async function commandsRun(client: Awaited<ReturnType<typeof connectClient>>): Promise<number> {
  const info = String(await client.sendCommand(["INFO", "commandstats"]));
  let total = 0;
  for (const [, name, calls] of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) {
    if (name !== "info") total += Number(calls);
  }
  return total;
}

/** Commands per task in scope of one pass of every kind, beyond the fixed ones (`reruns`: 2 of them). */
const PER_TASK = 16;
/** Commands of one pass whatever the number of tasks (store info, schedules, the lock). */
const FIXED = 10;

// newErrorGroup reads the dead-letter grouping instead, O(failed jobs): docs/alerts.md says so.
Deno.test("one evaluation of every rule kind but newErrorGroup costs at most 10 + 16 commands per task", async () => {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  const source = createRedisSource({ url: redis.url });
  try {
    await writeKeyspace(redis.url, readFixture());
    const rules = ALERT_KINDS.filter((kind) => kind !== "newErrorGroup").map((kind, i) =>
      ruleOf(kind, 1, { name: `rule ${i}`, windowMs: kind === "failureRate" ? 900_000 : null })
    );
    const tasks = await source.listTasks();
    // Scripts loading and the task discovery are not a pass's cost.
    await readSnapshot(source, rules, Date.now());
    const before = await commandsRun(client);
    const snapshot = await readSnapshot(source, rules, Date.now());
    const spent = (await commandsRun(client)) - before;
    assert.equal(snapshot.tasks?.size, tasks.length, "every task was read");
    assert.ok(
      spent <= FIXED + PER_TASK * tasks.length,
      `${spent} commands for ${tasks.length} tasks`,
    );
  } finally {
    await source.close();
    await client.close();
    await redis.stop();
  }
});
