/**
 * Stalled jobs against real taskora 0.5.0 workers: a job is stalled when it
 * is active and holds no lock (no worker runs it), not when taskora's stall
 * check lists it as a candidate in the `:stalled` set. A running job in
 * that set reads as healthy everywhere (the overview, the `stalled` alert
 * figure, the task page's line); an active job whose worker is gone reads
 * as stalled everywhere, with no worker left to run the stall check.
 */

import assert from "node:assert/strict";
import { measure } from "../../src/alerts/figures.ts";
import { KnownShapes } from "../../src/alerts/known_shapes.ts";
import { readSnapshot } from "../../src/alerts/snapshot.ts";
import { createRedisSource } from "../../src/source/redis/mod.ts";
import { ruleOf } from "../helpers/alert_snapshot.ts";
import { connectClient } from "../helpers/redis_server.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { type AppWorld, dispatchActive, holding, withApp } from "./harness.ts";

/** The `stalled` alert rule's figure for `task`, as the evaluator reads it. */
async function stalledFigure(world: AppWorld, task: string): Promise<number | null> {
  const source = createRedisSource({ url: world.url });
  try {
    const rule = ruleOf("stalled", 0, { tasks: [task] });
    const now = Date.now();
    const measures = measure(rule, await readSnapshot(source, [rule], now), new KnownShapes(), now);
    return measures![0].figure;
  } finally {
    await source.close();
  }
}

async function healthOf(world: AppWorld, task: string) {
  const { body } = await world.get("/overview");
  // deno-lint-ignore no-explicit-any
  return body.tasks.find((entry: any) => entry.name === task).health;
}

Deno.test("a running job in taskora's stall-check set is not stalled: no alert figure, healthy, not listed", async () => {
  const tasks = holding();
  await withApp("redis", tasks.define, async (world) => {
    const redis = await connectClient(world.url);
    try {
      const id = await dispatchActive(world, "watched");
      await waitFor(
        async () => Number(await redis.sIsMember("taskora:{watched}:stalled", id)) === 1,
        {
          what: "the stall check to list the running job as a candidate",
        },
      );
      assert.equal(await stalledFigure(world, "watched"), 0);
      assert.equal((await healthOf(world, "watched")).status, "healthy");
      const { body } = await world.get(`/tasks/watched/liveness?id=${id}`);
      assert.deepEqual(body.stalled, { ids: [], total: 0, checked: 1 });
    } finally {
      tasks.release();
      await redis.close();
    }
  });
});

Deno.test("an active job whose worker is gone is stalled: the overview warns, the alert counts it, the task page names it", async () => {
  const tasks = holding();
  await withApp("redis", tasks.define, async (world) => {
    const redis = await connectClient(world.url);
    try {
      const id = await dispatchActive(world, "hold");
      // Its worker is killed: the lock is not renewed and expires; the job stays in the active list.
      assert.equal(await redis.del(`taskora:{hold}:${id}:lock`), 1);
      assert.equal(await redis.sCard("taskora:{hold}:stalled"), 0, "no stall check listed it");

      assert.deepEqual(await healthOf(world, "hold"), {
        status: "warning",
        reason: "1 active job holds no lock: no worker runs it",
        failureRate: null,
        noProgress: false,
      });
      assert.equal(await stalledFigure(world, "hold"), 1);
      const { body } = await world.get(`/tasks/hold/liveness?id=${id}`);
      assert.deepEqual(body.stalled, { ids: [id], total: 1, checked: 1 });
    } finally {
      tasks.release();
      await redis.close();
    }
  });
});
