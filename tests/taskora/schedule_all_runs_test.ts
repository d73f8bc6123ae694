/**
 * Every run of a schedule, not only the last: taskora's scheduler keeps one
 * `lastJobId`, overwritten each run, so the board notes each new one it
 * reads beside the runs it dispatched itself; `GET /schedules/{name}/runs`
 * lists them all with their outcomes, the history's once taskora removed a
 * job. A real taskora App on Redis, its scheduler and a real worker.
 */

// deno-lint-ignore-file no-explicit-any
import assert from "node:assert/strict";
import { waitFor } from "../helpers/wait_for.ts";
import { withApp } from "./harness.ts";
import { systemTimers } from "../../src/timers.ts";
import { createBoardOn } from "../../src/board.ts";
import { connectClient } from "../helpers/redis_server.ts";
import { taskKeys } from "../../src/source/wire/keys.ts";
import { RUN_LOOK_MS } from "../../src/schedules/run_keeper.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";

function defineTasks(app: any): void {
  app.task("ping", {
    // The stall check is when taskora trims what it keeps (see history_board_test.ts).
    stall: { interval: 100, maxCount: 50 },
    handler: (data: { n: number }, ctx: { heartbeat(): void }) => {
      ctx.heartbeat();
      return data.n + 1;
    },
  });
  app.schedule("pinger", { task: "ping", every: "1s", data: { n: 1 } });
}

Deno.test("a schedule lists every run it made, the scheduler's and the board's, with outcomes, archived ones too", async () => {
  await withApp("redis", defineTasks, async (world) => {
    // The scheduler runs it three times; each run the board reads is kept.
    const seen = new Set<string>();
    await waitFor(async () => {
      const { status, body } = await world.get("/schedules");
      assert.equal(status, 200, JSON.stringify(body));
      const last = body.find((s: { name: string }) => s.name === "pinger").lastJobId;
      if (last) seen.add(last);
      return seen.size >= 3;
    }, { what: "three runs of the scheduler" });
    const triggered = await world.send("/schedules/pinger/trigger");
    assert.equal(triggered.status, 200, JSON.stringify(triggered.body));
    const [oldest] = seen;

    // Once taskora's retention removed the oldest, its outcome is the history's.
    const redis = await connectClient(world.url);
    try {
      await waitFor(
        async () => Number(await redis.exists(`${taskKeys("ping").jobPrefix}${oldest}`)) === 0,
        { what: "taskora's retention to remove the oldest run's job" },
      );
    } finally {
      await redis.close();
    }
    // Read on another replica: the board trusts a finished state it read for a minute, and
    // this one read the oldest run's state while it was the schedule's last.
    const replica = createBoardOn(systemTimers, world.url, { history: true });
    const runsOn = async (query: string) => {
      const response = await replica.fetch(
        new Request(`http://localhost/board/api/schedules/pinger/runs?${query}`),
      );
      return { status: response.status, body: await response.json() };
    };
    try {
      const page = await waitFor(async () => {
        const { status, body } = await runsOn("limit=100");
        assert.equal(status, 200, JSON.stringify(body));
        const first = body.runs.find((run: { jobId: string }) => run.jobId === oldest);
        return first?.archived && body.runs.every((run: any) => run.state === "completed") && body;
      }, { what: "the oldest run archived, every run completed" });

      const byJob = new Map(page.runs.map((run: any) => [run.jobId, run]));
      for (const id of seen) {
        assert.equal((byJob.get(id) as any)?.by, "scheduler", `run ${id} is listed`);
      }
      assert.equal((byJob.get(triggered.body.jobId) as any)?.by, "board");
      assert.equal(
        new Set(page.runs.map((run: any) => run.jobId)).size,
        page.runs.length,
        "once each",
      );
      assert.equal(page.total, page.runs.length);
      assert.deepEqual(byJob.get(oldest), { ...byJob.get(oldest) as any, archived: true });
      const times = page.runs.map((run: any) => run.at);
      assert.deepEqual(times, [...times].sort((a, b) => b - a), "newest first");

      const second = await runsOn("limit=1&offset=1");
      assert.deepEqual(second.body, { runs: [page.runs[1]], total: page.total });
    } finally {
      await replica.close();
    }
  }, {
    boardOn: "url",
    board: { history: true },
    app: { retention: { completed: { maxAge: "1s" } } },
  });
});

Deno.test("a schedule's runs refuse a bad page with 400 naming the field, an unknown schedule with 404", async () => {
  await withApp("redis", defineTasks, async (world) => {
    for (
      const [query, field] of [["limit=0", "limit"], ["offset=x", "offset"], ["limit=101", "limit"]]
    ) {
      const { status, body } = await world.get(`/schedules/pinger/runs?${query}`);
      assert.equal(status, 400, JSON.stringify(body));
      assert.equal(body.code, "INVALID_PARAM");
      assert.equal(body.param, field);
    }
    const missing = await world.get("/schedules/nope/runs");
    assert.equal(missing.status, 404, JSON.stringify(missing.body));
    assert.equal(missing.body.code, "SCHEDULE_NOT_FOUND");
  }, { start: false });
});

Deno.test("a board recording history keeps every run of a schedule while nobody opens the schedules page", async () => {
  const timers = new FakeTimers();
  await withApp("redis", defineTasks, async (world) => {
    // The scheduler runs every second; the leader looks every RUN_LOOK_MS of the board's clock.
    // Nobody asks for GET /schedules (which notes the runs it sees too): only the looks note.
    const runs = async () => {
      await timers.tick(RUN_LOOK_MS);
      const { status, body } = await world.get("/schedules/pinger/runs?limit=100");
      assert.equal(status, 200, JSON.stringify(body));
      return body as { runs: { jobId: string; by: string }[]; total: number };
    };
    const page = await waitFor(async () => {
      const page = await runs();
      return page.total >= 3 && page;
    }, { what: "three runs noted by the leader's looks" });
    assert.ok(page.runs.every((run) => run.by === "scheduler"), JSON.stringify(page.runs));
    assert.equal(new Set(page.runs.map((run) => run.jobId)).size, page.total, "once each");
  }, { boardOn: "url", board: { history: true }, timers });
});
