/**
 * The drain forecast against a real taskora App and a real worker: jobs
 * delayed 3 h are no backlog a forecast can drain (taskora holds them in
 * the delayed set until then), so a wait list the worker emptied reads
 * empty, in the forecast and in the leader's backlog sample, which also
 * notes what taskora's counters of its minute held when it was taken.
 */

import assert from "node:assert/strict";
import { pairedStore } from "../../src/store/pairing.ts";
import { startBacklogSampler } from "../../src/samplers/backlog.ts";
import { minuteOf } from "../../src/contract/forecast.ts";
import { Leadership } from "../../src/leadership.ts";
import { createAppSource } from "../../src/taskora/mod.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { withClient } from "../helpers/redis_server.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { withApp } from "./harness.ts";

const HOUR = 3_600_000;

// deno-lint-ignore no-explicit-any
const mail = (app: any) => app.task("mail", { handler: () => "sent" });

Deno.test("jobs delayed 3 h are not a backlog the forecast drains: a worker's emptied wait list reads empty", async () => {
  await withApp("redis", mail, async (world) => {
    // deno-lint-ignore no-explicit-any
    const task = [...world.app.getRegisteredTasks()].find((t: any) => t.name === "mail");
    for (let i = 0; i < 5; i++) await task.dispatch({ i }, { delay: 3 * HOUR });
    for (let i = 0; i < 4; i++) await task.dispatch({ i });
    await waitFor(async () => {
      const { body } = await world.get("/overview");
      const stats = body.tasks.find((t: { name: string }) => t.name === "mail")?.stats;
      return stats?.completed === 4 && stats.delayed === 5 ? true : undefined;
    }, { what: "the worker to run the 4 due jobs" });

    const { status, body } = await world.get("/tasks/mail/forecast");
    assert.equal(status, 200);
    assert.equal(body.backlog, 0, "nothing can drain within the hour");
    assert.equal(body.dueLater, 5);

    // The leader's sample leaves them out too, and notes its minute's counters.
    const source = createAppSource(world.app);
    const store = pairedStore(source)!;
    const sampler = startBacklogSampler({
      source,
      store,
      leadership: new Leadership(null),
      timers: new FakeTimers(),
      clock: Date.now,
    });
    try {
      // Someone looks at the board (no feed runs): the leader reads every task directly.
      await source.listTasks();
      await sampler.sample();
      const now = Date.now();
      const minutes = [minuteOf(now), minuteOf(now) - 60_000];
      const [sample] = (await store.readBacklogSamples("mail", minutes)).filter((s) => s);
      assert.ok(sample, "a sample of this minute or the last");
      assert.equal(sample.backlog, 0);
      const counted = await withClient(world.url, async (redis) => {
        const minute = minuteOf(sample.at);
        const [completed, failed] = await redis.mGet([
          `taskora:{mail}:metrics:completed:${minute}`,
          `taskora:{mail}:metrics:failed:${minute}`,
        ]);
        return Number(completed ?? 0) + Number(failed ?? 0);
      });
      assert.equal(sample.finishedBefore, counted);
    } finally {
      sampler.close();
      await source.close();
    }
  });
});
