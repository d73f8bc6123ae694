/**
 * The scaling signal against a real taskora 0.5.0 backlog on Redis: with
 * the task's one worker busy on a job holding concurrency key `acct`
 * (limit 1), plain, prioritized, key-held (on the wait list and on the
 * prioritized set), due delayed and not-yet-due delayed jobs are
 * dispatched; `GET /tasks/{task}/scaling` and `/metrics`
 * (`queue_board_task_backlog{task,kind}`) count each kind as the ground
 * truth computed from what was dispatched says.
 */

// deno-lint-ignore-file no-explicit-any
import assert from "node:assert/strict";
import { waitFor } from "../helpers/wait_for.ts";
import { withApp } from "./harness.ts";

/** What is dispatched, by the kind it must be counted as. */
const DISPATCHED = {
  waiting: [{}, {}, {}, { concurrencyKey: "acct-2", concurrencyLimit: 1 }],
  prioritized: [{ priority: 5 }, { priority: 9 }],
  held: [
    { concurrencyKey: "acct", concurrencyLimit: 1 },
    { concurrencyKey: "acct", concurrencyLimit: 1, priority: 5 },
  ],
  delayed: [{ delay: 1 }, { delay: 1 }],
  notDue: [{ delay: 3_600_000 }],
} as const;

Deno.test("the scaling route counts a real taskora backlog by kind as dispatched", async () => {
  const releases: (() => void)[] = [];
  let holding = true;
  // Each job runs until released while the test holds; after it, at once (so the App closes).
  const define = (app: any) =>
    app.task("billing", {
      concurrency: 1,
      handler: () =>
        holding ? new Promise((resolve) => releases.push(() => resolve("done"))) : "done",
    });
  await withApp("redis", define, async (world) => {
    const billing = [...world.app.getRegisteredTasks()].find((t: any) => t.name === "billing");
    try {
      await billing.dispatch({ n: 0 }, { concurrencyKey: "acct", concurrencyLimit: 1 });
      await waitFor(() => releases.length === 1 || undefined, { what: "the key's holder running" });
      let last = 0;
      for (const options of Object.values(DISPATCHED).flat()) {
        await billing.dispatch({ n: ++last }, options);
      }
      const dispatchedAt = Date.now();
      // The 1 ms delays fall due; waitFor only guards against a hang.
      await waitFor(() => Date.now() > dispatchedAt + 1 || undefined, { what: "1 ms passing" });

      const { status, body } = await world.get("/tasks/billing/scaling?targetWait=30s");
      assert.equal(status, 200, JSON.stringify(body));
      const truth = {
        waiting: DISPATCHED.waiting.length,
        prioritized: DISPATCHED.prioritized.length,
        delayed: DISPATCHED.delayed.length,
        held: DISPATCHED.held.length,
      };
      assert.deepEqual(body.backlog, truth);
      assert.equal(body.backlogTotal, 10);
      assert.equal(body.queued, 8, "the wait list and the prioritized set hold 8 jobs");
      assert.equal(body.examined, 8);
      assert.equal(body.targetWaitMs, 30_000);
      assert.ok(body.oldestWaitMs >= 0);
      assert.deepEqual(body.workersSeen.atLeast, 1, "the holder's lock is live");

      const metrics = await world.board.fetch(new Request("http://localhost/board/metrics"));
      const text = await metrics.text();
      const scraped = Object.fromEntries(
        [...text.matchAll(/^queue_board_task_backlog\{task="billing",kind="(\w+)"\} (\d+)$/gm)]
          .map(([, kind, count]) => [kind, Number(count)]),
      );
      assert.deepEqual(scraped, truth, "/metrics counts the kinds as the route does");
    } finally {
      holding = false;
      releases.forEach((release) => release());
    }
  });
});

Deno.test("the scaling route names a bad targetWait and an unknown task", async () => {
  await withApp(
    "redis",
    (app: any) => app.task("billing", { handler: () => "ok" }),
    async (world) => {
      const bad = await world.get("/tasks/billing/scaling?targetWait=soon");
      assert.equal(bad.status, 400);
      assert.equal(bad.body.code, "INVALID_PARAM");
      assert.match(bad.body.error, /targetWait/);
      const tooShort = await world.get("/tasks/billing/scaling?targetWait=10ms");
      assert.equal(tooShort.status, 400);
      assert.match(tooShort.body.error, /targetWait/);
      const unknown = await world.get("/tasks/nope/scaling");
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.code, "TASK_NOT_FOUND");
    },
  );
});
