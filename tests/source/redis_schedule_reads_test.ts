/**
 * The Redis source lists the schedules decoded once per change: a schedule
 * whose stored JSON, next run and last job's state are what the last list
 * read is answered as the same record (what the board builds from a record
 * is then built once per change of it, `GET /schedules`' answer), and one
 * that taskora changed, paused or ran since is read anew at the next list.
 * Schedules written and changed by a real taskora 0.5.0 App; the source on
 * its Redis URL, and the App's own (which marks the schedules its code
 * declares).
 */

import assert from "node:assert/strict";
import { RedisTaskSource } from "../../src/source/redis/mod.ts";
import { createAppSource } from "../../src/taskora/mod.ts";
import type { ScheduleRecord } from "../../src/source/types.ts";
import { globalKeys, taskKeys } from "../../src/source/wire/keys.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { writeJob } from "../helpers/wire_writer.ts";
import { hourlySchedulesApp } from "../helpers/hourly_schedules.ts";
import { waitFor } from "../helpers/wait_for.ts";

/** Notes a run of `hourly-0` as taskora's scheduler does: its last job, active. Returns its id. */
async function ranHourlyZero(client: Awaited<ReturnType<typeof connectClient>>): Promise<string> {
  const { schedules } = globalKeys();
  const stored = JSON.parse((await client.hGet(schedules, "hourly-0"))!);
  const jobId = await writeJob(client, { task: "report-0", state: "active" });
  await client.hSet(
    schedules,
    "hourly-0",
    JSON.stringify({ ...stored, lastRun: Date.now(), lastJobId: jobId }),
  );
  return jobId;
}

for (const over of ["url", "app"] as const) {
  Deno.test(`the Redis source answers an unchanged schedule as the record it made, a changed one anew (on the ${over})`, async () => {
    const redis = await startRedis();
    const client = await connectClient(redis.url);
    const app = hourlySchedulesApp(redis.url);
    const source = over === "url"
      ? new RedisTaskSource({ url: redis.url }, new FakeTimers())
      : createAppSource(app);
    const byName = (records: ScheduleRecord[]) => new Map(records.map((r) => [r.name, r]));
    try {
      await app.start();
      const first = byName(await source.listSchedules());
      assert.deepEqual([...first.keys()], ["hourly-0", "hourly-1", "hourly-2"]);
      const again = byName(await source.listSchedules());
      for (const [name, record] of first) assert.equal(again.get(name), record, name);

      // taskora changes one schedule's data and pauses another: those two are read anew.
      await app.schedules.update("hourly-1", { data: { i: 10 } });
      await app.schedules.pause("hourly-2");
      // Read through the tracking cache: shown once Redis's invalidation arrives.
      const changed = await waitFor(async () => {
        const listed = byName(await source.listSchedules());
        return listed.get("hourly-2")!.paused && listed;
      }, { what: "taskora's changes to show" });
      assert.equal(changed.get("hourly-0"), first.get("hourly-0"));
      assert.deepEqual(changed.get("hourly-1")!.config.data, { i: 10 });
      assert.notEqual(changed.get("hourly-1"), first.get("hourly-1"));
      assert.equal(changed.get("hourly-2")!.paused, true);

      // The scheduler ran hourly-0 (its last job, as taskora notes it): its job's state shows, and
      // each change of that state at the next list.
      const jobId = await ranHourlyZero(client);
      const ran = await waitFor(async () => {
        const [first] = await source.listSchedules();
        return first.lastJobId === jobId && first;
      }, { what: "the scheduler's run to show" });
      assert.equal(ran.lastJobId, jobId);
      assert.equal(ran.lastRunStatus, "active");
      await client.hSet(`${taskKeys("report-0").jobPrefix}${jobId}`, "state", "completed");
      const finished = (await source.listSchedules())[0];
      assert.equal(finished.lastRunStatus, "completed");
      assert.equal(typeof finished.lastRunStatusAt, "number", "a kept finished state says its age");
      assert.equal((await source.listSchedules())[0], finished);
    } finally {
      await app.close();
      await source.close();
      client.destroy();
      await redis.stop();
    }
  });
}

Deno.test("the Redis source answers an unchanged list as the list it made, and anew once a last job's state moved", async () => {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  const app = hourlySchedulesApp(redis.url);
  const source = new RedisTaskSource({ url: redis.url }, new FakeTimers());
  try {
    await app.start();
    const first = await source.listSchedules();
    assert.equal(await source.listSchedules(), first, "nothing changed: the same list");
    assert.ok(Object.isFrozen(first), "a list answered again is not changed in place");

    // hourly-0 ran (its stored JSON changed): the list is made anew, then answered again.
    const jobId = await ranHourlyZero(client);
    const ran = await waitFor(async () => {
      const listed = await source.listSchedules();
      return listed[0].lastJobId === jobId && listed;
    }, { what: "the scheduler's run to show" });
    assert.notEqual(ran, first);
    assert.equal(ran[0].lastRunStatus, "active");
    assert.equal(await source.listSchedules(), ran);

    // Only its job's state moves (taskora's replies are the same): the next list shows it.
    await client.hSet(`${taskKeys("report-0").jobPrefix}${jobId}`, "state", "completed");
    const finished = await source.listSchedules();
    assert.notEqual(finished, ran);
    assert.equal(finished[0].lastRunStatus, "completed");
    assert.equal(finished[1], ran[1], "the schedules that did not change keep their records");
    assert.equal(await source.listSchedules(), finished);
  } finally {
    await app.close();
    await source.close();
    client.destroy();
    await redis.stop();
  }
});
