/**
 * Liveness with a real taskora App and real workers: an active job's lock
 * (written by the worker that claimed it) is read with its time left; a
 * job whose lock is gone is seen without one ("stalled?"); a job a real
 * stall check lists as a candidate is flagged so, and not counted stalled;
 * the scheduler's leader lock is read while an App with schedules runs. On
 * the memory adapter the board says it cannot know.
 */

import assert from "node:assert/strict";
import { connectClient } from "../helpers/redis_server.ts";
import { dispatchActive, holding, withApp } from "./harness.ts";
import { waitFor } from "../helpers/wait_for.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

Deno.test("a running job's lock is read with its token and time left; with the lock gone it reads as none", async () => {
  const tasks = holding({ schedule: true });
  await withApp("redis", tasks.define, async (world) => {
    try {
      const id = await dispatchActive(world, "hold");
      const { status, body } = await world.get(`/tasks/hold/liveness?id=${id}`);
      assert.equal(status, 200, JSON.stringify(body));
      assert.equal(body.known, true);
      const [lock] = body.locks;
      assert.equal(lock.id, id);
      assert.match(lock.token, UUID, "the worker's random token for this attempt");
      assert.ok(lock.ttlMs > 0 && lock.ttlMs <= 30_000, `ttl ${lock.ttlMs}`);

      // The worker dies without a word: its lock is gone, the job is still in the active list.
      const redis = await connectClient(world.url);
      try {
        assert.equal(await redis.del(`taskora:{hold}:${id}:lock`), 1);
      } finally {
        await redis.close();
      }
      const after = await world.get(`/tasks/hold/liveness?id=${id}`);
      assert.deepEqual(after.body.locks, [{ id, token: null, ttlMs: null, inStalledSet: false }]);
      assert.equal((await world.get(`/jobs/${id}`)).body.state, "active", "flagged, not moved");
    } finally {
      tasks.release();
    }
  });
});

Deno.test("a job a real stall check lists as a candidate reads so, holding its lock: not stalled", async () => {
  const tasks = holding({ schedule: true });
  await withApp("redis", tasks.define, async (world) => {
    try {
      const id = await dispatchActive(world, "watched");
      const body = await waitFor(async () => {
        const { body } = await world.get(`/tasks/watched/liveness?id=${id}`);
        return body.locks[0].inStalledSet ? body : undefined;
      }, { what: "the stall check to put the job in the stalled set" });
      assert.match(body.locks[0].token, UUID, "a candidate, not stalled: its lock is alive");
      assert.deepEqual(body.stalled, { ids: [], total: 0, checked: 1 });
    } finally {
      tasks.release();
    }
  });
});

Deno.test("while an App with schedules runs, its scheduler's leader lock is read with its time left", async () => {
  const tasks = holding({ schedule: true });
  await withApp("redis", tasks.define, async (world) => {
    const body = await waitFor(async () => {
      const { body } = await world.get("/scheduler");
      return body.leader ? body : undefined;
    }, { what: "a scheduler to lead" });
    assert.equal(body.known, true);
    assert.match(body.leader.token, UUID, "the scheduler's random token");
    assert.ok(body.leader.ttlMs > 0 && body.leader.ttlMs <= 30_000, `ttl ${body.leader.ttlMs}`);
    assert.equal(typeof body.readAt, "number");
  });
});

Deno.test("on the memory adapter, liveness is not known, and the answer says why", async () => {
  const tasks = holding({ schedule: true });
  await withApp("memory", tasks.define, async (world) => {
    const task = await world.get("/tasks/hold/liveness");
    assert.equal(task.status, 200);
    assert.equal(task.body.known, false);
    assert.match(task.body.reason, /App API shows no job lock/);
    assert.equal((await world.get("/tasks/nope/liveness")).status, 404);
    const scheduler = await world.get("/scheduler");
    assert.equal(scheduler.body.known, false);
    assert.match(scheduler.body.reason, /leader lock/);
  });
});
