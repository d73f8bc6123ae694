/**
 * The Attempts tab against a real taskora 0.5.0 worker on Redis: taskora's
 * `retrying` entry carries the number of the attempt that comes next and no
 * error, its final `failed` entry carries neither, and the job hash keeps
 * the last error. The board numbers the attempts 1..n in order and gives
 * the last one the job's error.
 */

import assert from "node:assert/strict";
import { type AppWorld, waitForState, withApp } from "./harness.ts";

const BOARDS = ["app", "url"] as const;

for (const boardOn of BOARDS) {
  Deno.test(`a job that failed 3 of 3 tries shows attempts 1, 2, 3 in order, the last with the job's error (${boardOn})`, async () => {
    await withApp("redis", (app) => {
      let tries = 0;
      app.task("always-down", {
        retry: { attempts: 3, backoff: "fixed", delay: 1 },
        handler: () => {
          tries++;
          throw new Error(`service down (try ${tries})`);
        },
      });
    }, async (world: AppWorld) => {
      const task = [...world.app.getRegisteredTasks()][0];
      const id: string = await task.dispatch({});
      const job = await waitForState(world, id, "failed");
      assert.equal(job.attempt, 3);
      assert.equal(job.error, "service down (try 3)");

      const { status, body } = await world.get(`/jobs/${id}/attempts`);
      assert.equal(status, 200);
      assert.equal(body.complete, true);
      assert.deepEqual(
        body.attempts.map((a: { attempt: number; outcome: string }) => [a.attempt, a.outcome]),
        [[1, "retrying"], [2, "retrying"], [3, "failed"]],
      );
      assert.deepEqual(
        body.attempts.map((a: { error: string | null }) => a.error),
        [null, null, "service down (try 3)"],
        "taskora's retrying entries carry no error; the last attempt's is the job's",
      );
    }, { boardOn });
  });
}
