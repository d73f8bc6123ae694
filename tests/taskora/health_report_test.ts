/**
 * The MCP `health_report` tool against real taskora 0.5.0: a task whose jobs
 * wait with no worker running and one whose worker fails every job. The
 * board's clock is moved ahead (a {@link ShiftedClock}) rather than waited
 * out, and the report's sentences must name the figures that are true.
 */

import assert from "node:assert/strict";
import { ShiftedClock } from "../helpers/shifted_clock.ts";
import { textOf, withClient } from "../helpers/mcp_client.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { createTaskora, redisAdapter, taskOf, withApp } from "./harness.ts";

Deno.test("health_report names a stalled backlog's count, oldest age and untaken time, and a failing task's failures", async () => {
  const timers = new ShiftedClock();
  await withApp(
    "redis",
    (app) => {
      app.task("billing", { handler: () => "ok" });
      app.task("payments", { retry: { attempts: 1 }, handler: () => "ok" });
    },
    async (world) => {
      // The workers run in another App on the same Redis: billing's take 3 jobs and stop,
      // payments' fail every job. The board's App never starts: after that, no worker runs.
      const workers = createTaskora({ adapter: redisAdapter(world.url) });
      workers.task("billing", { handler: () => "ok" });
      workers.task("payments", {
        retry: { attempts: 1 },
        handler: () => {
          throw new Error("card processor down");
        },
      });
      await workers.start();
      try {
        for (let n = 0; n < 3; n++) await taskOf(world.app, "billing").dispatch({ n });
        for (let n = 0; n < 4; n++) await taskOf(world.app, "payments").dispatch({ n });
        await waitFor(async () => {
          const [billing, payments] = await Promise.all(
            ["billing", "payments"].map(async (task) =>
              (await world.get(`/tasks/${task}/stats`)).body
            ),
          );
          return billing.completed === 3 && payments.failed === 4;
        }, { what: "billing's three jobs to complete and payments' four to fail" });
      } finally {
        await workers.close();
      }
      for (let n = 0; n < 7; n++) await taskOf(world.app, "billing").dispatch({ n });
      // The board's clock 9 min on: billing's jobs have waited that long, none taken.
      timers.ahead(9 * 60_000);
      let report = "";
      await withClient({ board: world.board }, {}, async (client) => {
        report = textOf(await client.callTool({ name: "health_report", arguments: {} }));
      });
      const [summary, ...lines] = report.split("\n");
      assert.equal(
        summary,
        "2 tasks: 2 critical, 0 warning, 0 healthy, 0 idle; 7 waiting, 4 failed in all.",
        report,
      );
      assert.equal(lines.length, 2, report);
      assert.match(
        lines[0],
        /^billing: critical: 7 waiting, oldest 9 min, 0 active; 7 waiting, none taken for 9 min \(over 5 min\): no worker is taking jobs$/,
      );
      assert.equal(
        lines[1],
        "payments: critical: 0 waiting, 0 active; 100 % of jobs failed in the last 15 min; " +
          "4 failed in the last 15 min, none in the 45 min before",
      );
    },
    { start: false, boardOn: "url", timers },
  );
});
