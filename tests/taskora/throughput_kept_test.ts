/**
 * The day of throughput the board's leader keeps says what taskora's own
 * counters say, against a real taskora 0.5.0 worker: jobs that complete and
 * jobs that fail for good, in total and per task, then more of them, which
 * the next pass (reading only the minutes since the last) adds. The
 * keeper's passes run on fake timers.
 */

import assert from "node:assert/strict";
import { AS_OF_HEADER, type ThroughputBucket } from "../../src/contract/throughput.ts";
import { FakeTimers, settle } from "../helpers/fake_timers.ts";
import { connectClient } from "../helpers/redis_server.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { taskOf, waitForState, withApp } from "./harness.ts";

const KEPT = "taskora:board:throughput";

function sums(buckets: ThroughputBucket[]): { completed: number; failed: number } {
  return buckets.reduce(
    (sum, bucket) => ({
      completed: sum.completed + bucket.completed,
      failed: sum.failed + bucket.failed,
    }),
    { completed: 0, failed: 0 },
  );
}

Deno.test("the kept day of throughput counts what a real worker finished, per task and in total", async () => {
  const timers = new FakeTimers();
  // deno-lint-ignore no-explicit-any
  const define = (app: any) => {
    app.task("resize", { handler: () => "ok" });
    app.task("charge", {
      retry: { attempts: 1 },
      handler: () => {
        throw new Error("card declined");
      },
    });
  };
  await withApp("redis", define, async (world) => {
    const redis = await connectClient(world.url);
    const run = async (task: string, count: number, state: string) => {
      for (let i = 0; i < count; i++) {
        await waitForState(world, String(await taskOf(world.app, task).dispatch({ i })), state);
      }
    };
    /** A pass of the leader, and the answer it keeps: its `X-As-Of` is the pass's. */
    const kept = async (path: string) => {
      const response = await world.board.fetch(new Request(`http://localhost/board/api${path}`));
      assert.equal(response.status, 200);
      const asOf = response.headers.get(AS_OF_HEADER);
      assert.equal(asOf, await redis.hGet(KEPT, "@asOf"), `${path} from the kept day`);
      return sums(await response.json());
    };
    // A second at a time, each look letting Redis answer the lease's renewals: a minute at once
    // outran them on a loaded machine, and the board stopped leading before its pass was due.
    const pass = async () => {
      const before = await redis.hGet(KEPT, "@asOf");
      await settle();
      await waitFor(async () => {
        await timers.tick(1_000);
        return (await redis.hGet(KEPT, "@asOf")) !== before;
      }, { what: "the leader's pass" });
    };
    try {
      await run("resize", 5, "completed");
      await run("charge", 3, "failed");
      // A board was asked: the leader keeps the day, and its first pass answers this ask.
      await world.get("/throughput");
      assert.deepEqual(await kept("/throughput"), { completed: 5, failed: 3 });
      assert.deepEqual(await kept("/throughput?task=resize"), { completed: 5, failed: 0 });
      assert.deepEqual(await kept("/throughput?task=charge&count=60"), {
        completed: 0,
        failed: 3,
      });

      await run("resize", 2, "completed");
      await run("charge", 1, "failed");
      await pass();
      assert.deepEqual(await kept("/throughput"), { completed: 7, failed: 4 });
      assert.deepEqual(await kept("/throughput?task=charge"), { completed: 0, failed: 4 });
    } finally {
      await redis.close();
    }
  }, { timers });
});
