/**
 * The `noProgress` alert counts from the last job a worker took, read from
 * taskora's events stream as the overview's health reads it: a long queue
 * whose worker keeps taking jobs makes progress, however long its oldest
 * job has waited.
 */

import assert from "node:assert/strict";
import { measure } from "../../src/alerts/figures.ts";
import { KnownShapes } from "../../src/alerts/known_shapes.ts";
import { readSnapshot } from "../../src/alerts/snapshot.ts";
import { HEALTH_EVENT_DEPTH } from "../../src/contract/workers.ts";
import { createRedisSource } from "../../src/source/redis/mod.ts";
import { ruleOf } from "../helpers/alert_snapshot.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { steerable, taskOf, waitForState, withApp } from "./harness.ts";

Deno.test("noProgress counts from the worker's last take, not from the oldest waiting job's arrival", async () => {
  let state: ReturnType<typeof steerable>;
  await withApp("redis", (app) => state = steerable(app), async (world) => {
    const slow = taskOf(world.app, "slow");
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push(String(await slow.dispatch({})));
    await waitForState(world, ids[0], "active");
    // The worker (one job at a time) finishes the first and takes the second after the third
    // arrived: the third waits since before the last take.
    state.release.shift()!();
    await waitForState(world, ids[1], "active");

    const source = createRedisSource({ url: world.url });
    try {
      const activity = await waitFor(async () => {
        const read = (await source.readStreams!({
          kind: "activity",
          tasks: ["slow"],
          depth: HEALTH_EVENT_DEPTH,
        })).get("slow");
        return read?.lastTakenAt ? read : undefined;
      }, { what: "the second take in the stream" });
      const { heads } = (await source.getQueueSnapshots(["slow"])).get("slow")!;
      const arrived = heads.oldestWaiting!.since;
      assert.ok(activity.lastTakenAt! > arrived, "the last take came after the third job arrived");

      const now = activity.lastTakenAt! + 10 * 60_000;
      const rule = ruleOf("noProgress", 5 * 60_000, { tasks: ["slow"] });
      const snapshot = await readSnapshot(source, [rule], now);
      const [measured] = measure(rule, snapshot, new KnownShapes(), now)!;
      assert.equal(measured.figure, now - activity.lastTakenAt!);
      assert.notEqual(measured.figure, now - arrived);
    } finally {
      await source.close();
      for (const release of state.release.splice(0)) release();
    }
  });
});
