/**
 * The queue ETA of a waiting job's diagnosis with a real taskora App and a
 * real worker: the rate is the jobs that left the queue (completed or
 * failed) over the time the workers have actually run, read from the
 * task's event stream, not completions over a fixed 10 minutes; a job
 * behind a concurrency key at its limit drains at that key's rate, and the
 * diagnosis says so rather than quoting the task's.
 */

// deno-lint-ignore-file no-explicit-any
import assert from "node:assert/strict";
import { roughDuration } from "../../src/contract/health.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { type AppWorld, withApp } from "./harness.ts";

function taskOf(world: AppWorld, name: string): any {
  return [...world.app.getRegisteredTasks()].find((task: any) => task.name === name);
}

/** The diagnosis's reason of `code` for job `id`, once the worker's state lets it show. */
function reasonOf(world: AppWorld, id: string, code: string, ready: (r: any) => boolean) {
  return waitFor(async () => {
    const { body } = await world.get(`/jobs/${id}/diagnosis`);
    const reason = body.reasons.find((r: any) => r.code === code);
    return reason && ready(reason) ? reason : undefined;
  }, { what: `a ${code} reason for ${id}` });
}

/** A handler that fails jobs whose data says so and holds the others until released. */
function failingOrHeld() {
  const releases: (() => void)[] = [];
  return {
    handler: (data: { fail?: boolean }) => {
      if (data.fail) throw new Error("refused");
      return new Promise((resolve) => releases.push(() => resolve("done")));
    },
    /** Releases the job held longest; false when none is held yet. */
    releaseOne: () => {
      const release = releases.shift();
      release?.();
      return release !== undefined;
    },
    releaseAll: () => releases.splice(0).forEach((release) => release()),
  };
}

Deno.test("the queue ETA counts failures too, over the time the workers have run, not 10 minutes", async () => {
  const held = failingOrHeld();
  await withApp("redis", (app) => {
    app.task("half", { concurrency: 1, retry: { attempts: 1 }, handler: held.handler });
  }, async (world) => {
    try {
      const task = taskOf(world, "half");
      const ids: string[] = [];
      for (const fail of [true, false, false, false, false]) {
        ids.push(String(await task.dispatch({ fail })));
      }
      const startedAt = Date.now();
      await world.app.start();
      // One failed, the first held one released: two left the queue; one runs, two wait.
      let released = false;
      await waitFor(async () => {
        const { body } = await world.get(`/jobs/${ids[1]}`);
        // Released once: the next job may be held by the time this one reads as completed.
        if (body.state === "active" && !released) released = held.releaseOne();
        return body.state === "completed" ? true : undefined;
      }, { what: "the second job to complete" });
      const queue = await reasonOf(world, ids[4], "queue", (r) => r.evidence.ahead === 1);
      assert.equal(queue.evidence.finished, 2, "a failed job leaves the queue as a completed one");
      const { spanMs } = queue.evidence;
      assert.ok(spanMs > 0 && spanMs <= Date.now() - startedAt, `span ${spanMs} ms`);
      const eta = roughDuration((1 / 2) * spanMs);
      assert.equal(
        queue.summary,
        `1 job ahead of it: about ${eta} at the rate since its workers started`,
      );
    } finally {
      held.releaseAll();
    }
  }, { start: false });
});

Deno.test("a job behind a concurrency key at its limit drains at that key's rate, and the diagnosis says so", async () => {
  const held = failingOrHeld();
  await withApp("redis", (app) => {
    app.task("keyed", { concurrency: 3, retry: { attempts: 1 }, handler: held.handler });
  }, async (world) => {
    try {
      const task = taskOf(world, "keyed");
      await task.dispatch({ fail: true }); // one that left the queue: the task has a rate
      const options = { concurrencyKey: "tenant-1", concurrencyLimit: 1 };
      const running = String(await task.dispatch({}, options));
      const blocked = String(await task.dispatch({}, options));
      const queue = await reasonOf(world, blocked, "queue", (r) => r.evidence.finished === 1);
      assert.equal(queue.evidence.keyLimit, 1);
      assert.match(
        queue.summary,
        /its concurrency key lets 1 run at a time: it drains at that key's rate, not the task's/,
      );
      assert.doesNotMatch(queue.summary, /about/);
      const { body } = await world.get(`/jobs/${running}`);
      assert.equal(body.state, "active");
    } finally {
      held.releaseAll();
    }
  });
});
