/**
 * The TaskSource mutation contract: every action (retry, cancel, retry-all,
 * clean, the schedule buttons, workflow cancel) does the same thing, with the
 * same refusals, on every source. Each test seeds a fresh source from the
 * fixture keyspace. `memory_contract_test.ts` and `redis_contract_test.ts`
 * run it against each source, next to the read contract.
 */

import assert from "node:assert/strict";
import { BoardError } from "../../src/errors.ts";
import { nextRunOf } from "../../src/source/schedule_time.ts";
import type { JobState, SchedulePatch, TaskSource } from "../../src/source/types.ts";
import { type Fixture as KeyspaceDump, fixtureTime, readFixture } from "../helpers/fixture.ts";
import { type Seed, seededContract, withQueuedBilling } from "./source_contract.ts";

const FAILED_EMAIL = "7deea1e0-af8c-4c24-bb84-c89069ee4b0a";
const CANCELLED_EMAIL = "cfa125ab-710e-4e8f-8ca0-2f1fe8870b15";
const COMPLETED_EMAIL = "d2d954a9-6cc5-4bb4-b341-01e347a69342";
const ACTIVE_TRANSCODE = "d8e1df37-39dd-4863-9508-f7c9bd517880";
const COMPLETED_CHORD = "69fbb603-1f1d-4dd0-82d4-a6f176fcec3a";
const RUNNING_WORKFLOW = "0f9d7c2e-1111-4a7b-9c3d-5e6f70809a0b";
const UNKNOWN_JOB = "00000000-0000-0000-0000-000000000000";
const DAY = 86_400_000;

/**
 * The fixture plus a running workflow, chord(chain(square → square), square → sum),
 * in the shape taskora leaves it: node 0 done; node 1 dispatched by
 * advanceWorkflow (`active`) and running; node 2 a root, which taskora leaves
 * `pending` while its job waits; node 3 never dispatched.
 */
export function withRunningWorkflow(dump: KeyspaceDump): KeyspaceDump {
  const t = dump.dumpedAt - 2_000;
  const graph = {
    nodes: [
      { taskName: "square", deps: [] as number[], jobId: "wf-run-0", _v: 1, data: "6" },
      { taskName: "square", deps: [0], jobId: "wf-run-1", _v: 1 },
      { taskName: "square", deps: [] as number[], jobId: "wf-run-2", _v: 1, data: "7" },
      { taskName: "sum", deps: [1, 2], jobId: "wf-run-3", _v: 1 },
    ],
    terminal: [3],
    name: "chord(chain(square → square), square → sum)",
  };
  const node = (index: number, data: string, fields: Record<string, string>) => ({
    type: "hash" as const,
    pttl: -1,
    value: {
      ts: String(t + index),
      _v: "1",
      attempt: "1",
      maxAttempts: "1",
      priority: "0",
      data,
      _wf: RUNNING_WORKFLOW,
      _wfNode: String(index),
      ...fields,
    },
  });
  const completed = dump.keys["taskora:{square}:completed"].value as {
    value: string;
    score: number;
  }[];
  return {
    ...dump,
    keys: {
      ...dump.keys,
      [`taskora:wf:{${RUNNING_WORKFLOW}}`]: {
        type: "hash",
        pttl: -1,
        value: {
          graph: JSON.stringify(graph),
          state: "running",
          createdAt: String(t),
          "n:0:state": "completed",
          "n:0:result": "36",
          "n:1:state": "active",
          "n:2:state": "pending",
          "n:3:state": "pending",
        },
      },
      "taskora:{square}:wf-run-0": node(0, "6", {
        state: "completed",
        processedOn: String(t + 10),
        finishedOn: String(t + 20),
        result: "36",
      }),
      "taskora:{square}:wf-run-1": node(1, "36", { state: "active", processedOn: String(t + 30) }),
      "taskora:{square}:wf-run-2": node(2, "7", { state: "waiting" }),
      "taskora:{square}:completed": {
        type: "zset",
        pttl: -1,
        value: [...completed, { value: "wf-run-0", score: t + 20 }],
      },
      "taskora:{square}:active": { type: "list", pttl: -1, value: ["wf-run-1"] },
      "taskora:{square}:wait": { type: "list", pttl: -1, value: ["wf-run-2"] },
    },
  };
}

/** The fixture with the billing queue, and schedules for billing and resize-image. */
export function withMoreSchedules(dump: KeyspaceDump): KeyspaceDump {
  const queued = withQueuedBilling(dump);
  const schedules = queued.keys["taskora:schedules"].value as Record<string, string>;
  return {
    ...queued,
    keys: {
      ...queued.keys,
      "taskora:schedules": {
        type: "hash",
        pttl: -1,
        value: {
          ...schedules,
          invoices: JSON.stringify({
            task: "billing",
            overlap: false,
            onMissed: "skip",
            every: 60_000,
            data: { run: "monthly" },
          }),
          thumbnails: JSON.stringify({ task: "resize-image", every: 3_600_000 }),
          "ghost-sync": JSON.stringify({ task: "ghost", every: 60_000, data: { full: true } }),
        },
      },
    },
  };
}

type CodedError = Error & { code?: string; status?: number };

/** A rejection predicate: the error carries this catalogue code (and the message, when given, contains `mentions`). */
function code(expected: string, mentions?: string): (error: CodedError) => boolean {
  return (error) => {
    assert.equal(error.code, expected, `code of: ${error.message}`);
    if (mentions !== undefined) {
      assert.ok(error.message.includes(mentions), `"${error.message}" mentions "${mentions}"`);
    }
    return true;
  };
}

/** A task's count of jobs in a state. */
export async function count(source: TaskSource, task: string, state: JobState): Promise<number> {
  return (await source.getStats([task])).get(task)![state];
}

/** The ids of a task's jobs in a state (up to 1,000). */
export async function ids(source: TaskSource, task: string, state: JobState): Promise<string[]> {
  return (await source.listJobs(task, state, 0, 1_000)).jobs.map((job) => job.id);
}

/** Registers the mutation contract tests for one source. */
export function mutationContract(name: string, seed: Seed): void {
  const dump = readFixture();
  const queued = withQueuedBilling(dump);
  const running = withRunningWorkflow(dump);

  const contract = seededContract(`${name}: `, seed, dump);

  // ── retry ─────────────────────────────────────────────────────────

  contract("retries a failed job: back to waiting once, attempt 1, a clean slate", async (s) => {
    const before = Date.now();
    const result = await s.retryJob(FAILED_EMAIL);
    assert.deepEqual(result, {
      id: FAILED_EMAIL,
      task: "send-email",
      from: "failed",
      to: "waiting",
    });
    const waiting = await s.listJobs("send-email", "waiting", 0, 50);
    assert.deepEqual(waiting.jobs.map((job) => job.id), [FAILED_EMAIL]);
    assert.equal(waiting.total, 1);
    assert.equal(waiting.jobs[0].attempt, 1);
    assert.equal(await count(s, "send-email", "failed"), 4);
    assert.ok(!(await ids(s, "send-email", "failed")).includes(FAILED_EMAIL));
    const job = await s.getJob(FAILED_EMAIL);
    assert.ok(job);
    assert.equal(job.state, "waiting");
    assert.equal(job.error, null);
    assert.equal(job.result, null);
    assert.equal(job.finishedAt, null);
    assert.equal(job.processedAt, null);
    assert.equal(job.progress, null);
    assert.ok(job.createdAt >= before, "a fresh ts");
    assert.deepEqual(job.data, { to: "u0@x.io", password: "hunter2", mode: "fail", i: 0 });
    assert.equal(job.logs.length, 2, "the logs stay");
  });

  contract("retries a cancelled job and clears its cancel", async (s) => {
    assert.deepEqual(await s.retryJob(CANCELLED_EMAIL), {
      id: CANCELLED_EMAIL,
      task: "send-email",
      from: "cancelled",
      to: "waiting",
    });
    assert.equal(await count(s, "send-email", "cancelled"), 0);
    const job = await s.getJob(CANCELLED_EMAIL);
    assert.equal(job?.state, "waiting");
    assert.equal(job?.cancelReason, null);
    assert.equal(job?.cancelledAt, null);
    assert.equal(job?.finishedAt, null);
  });

  contract("refuses to retry a job outside the allowed states", async (s) => {
    await assert.rejects(
      s.retryJob(COMPLETED_EMAIL),
      code("INVALID_STATE", "completed"),
    );
    await assert.rejects(
      s.retryJob(CANCELLED_EMAIL, { from: ["failed"] }),
      code("INVALID_STATE", "cancelled"),
    );
    await assert.rejects(s.retryJob(UNKNOWN_JOB), code("JOB_NOT_FOUND"));
    assert.equal(await count(s, "send-email", "completed"), 10);
    assert.equal(await count(s, "send-email", "cancelled"), 1);
  });

  contract("two retries of one job at once: exactly one wins", async (s) => {
    const outcomes = await Promise.allSettled([s.retryJob(FAILED_EMAIL), s.retryJob(FAILED_EMAIL)]);
    const won = outcomes.filter((o) => o.status === "fulfilled");
    const lost = outcomes.filter((o) => o.status === "rejected");
    assert.equal(won.length, 1);
    assert.equal(lost.length, 1);
    assert.equal(((lost[0] as PromiseRejectedResult).reason as CodedError).code, "INVALID_STATE");
    assert.deepEqual(await ids(s, "send-email", "waiting"), [FAILED_EMAIL]);
    assert.equal(await count(s, "send-email", "waiting"), 1);
  });

  // ── edited retry ──────────────────────────────────────────────────

  contract("an edited retry sends the job back with its new data, in one step", async (s) => {
    const edited = { to: "fixed@x.io", mode: "ok", nested: { list: [1, "two", null] } };
    assert.deepEqual(await s.retryJob(FAILED_EMAIL, { data: edited }), {
      id: FAILED_EMAIL,
      task: "send-email",
      from: "failed",
      to: "waiting",
    });
    const job = await s.getJob(FAILED_EMAIL);
    assert.equal(job?.state, "waiting");
    assert.equal(job?.attempt, 1);
    assert.deepEqual(job?.data, edited);
    assert.deepEqual(await ids(s, "send-email", "waiting"), [FAILED_EMAIL]);
    await s.retryJob(CANCELLED_EMAIL, { data: null });
    assert.equal((await s.getJob(CANCELLED_EMAIL))?.data, null, "null is data too");
  });

  contract("a refused edited retry leaves the job's data as it was", async (s) => {
    const before = (await s.getJob(COMPLETED_EMAIL))?.data;
    await assert.rejects(
      s.retryJob(COMPLETED_EMAIL, { data: { replaced: true } }),
      code("INVALID_STATE", "completed"),
    );
    assert.deepEqual((await s.getJob(COMPLETED_EMAIL))?.data, before);
    await assert.rejects(s.retryJob(UNKNOWN_JOB, { data: {} }), code("JOB_NOT_FOUND"));
  });

  // ── run again ─────────────────────────────────────────────────────

  contract("runs a job again: a new waiting job of its task, its data, its version", async (s) => {
    const result = await s.rerunJob(COMPLETED_EMAIL);
    assert.equal(result.task, "send-email");
    assert.equal(result.version, 1, "the fixture's send-email jobs are all _v 1");
    assert.equal(result.versionFrom, "recent-jobs");
    assert.notEqual(result.jobId, COMPLETED_EMAIL);
    const fresh = await s.getJob(result.jobId);
    const original = await s.getJob(COMPLETED_EMAIL);
    assert.ok(fresh && original);
    assert.equal(fresh.state, "waiting");
    assert.equal(fresh.attempt, 1);
    assert.equal(fresh.maxAttempts, 2);
    assert.equal(fresh.version, 1);
    assert.deepEqual(fresh.data, original.data);
    assert.equal(original.state, "completed", "the job run again stays as it was");
    assert.deepEqual(await ids(s, "send-email", "waiting"), [result.jobId]);
    const second = await s.rerunJob(COMPLETED_EMAIL);
    assert.notEqual(second.jobId, result.jobId, "each run again is a new job");
    await assert.rejects(s.rerunJob(UNKNOWN_JOB), code("JOB_NOT_FOUND"));
  });

  // ── cancel ────────────────────────────────────────────────────────

  contract("cancels waiting, prioritized, delayed and retrying jobs at once", async (s) => {
    const cases: [string, JobState][] = [
      ["w1", "waiting"],
      ["p-high", "waiting"],
      ["d1", "delayed"],
      ["r1", "retrying"],
    ];
    const before = Date.now();
    for (const [id, state] of cases) {
      assert.deepEqual(await s.cancelJob(id, "not needed"), {
        id,
        task: "billing",
        from: state,
        to: "cancelled",
      });
      const job = await s.getJob(id);
      assert.equal(job?.state, "cancelled");
      assert.equal(job?.cancelReason, "not needed");
      assert.ok(job!.finishedAt! >= before);
      assert.equal(job?.cancelledAt, job?.finishedAt, "the board stamps the cancel time");
      assert.equal(job?.runAt, null);
    }
    const stats = (await s.getStats(["billing"])).get("billing")!;
    assert.deepEqual([stats.waiting, stats.delayed, stats.retrying, stats.cancelled], [3, 0, 0, 4]);
    assert.deepEqual(await ids(s, "billing", "waiting"), ["w2", "w3", "p-low"]);
    assert.deepEqual((await ids(s, "billing", "cancelled")).toSorted(), [
      "d1",
      "p-high",
      "r1",
      "w1",
    ]);
  }, queued);

  contract("a cancel without a reason leaves cancelReason empty", async (s) => {
    assert.equal((await s.cancelJob("w2")).to, "cancelled");
    assert.equal((await s.getJob("w2"))?.cancelReason, null);
  }, queued);

  contract("cancelling an active job only signals its worker", async (s) => {
    const before = Date.now();
    assert.deepEqual(await s.cancelJob(ACTIVE_TRANSCODE, "too slow"), {
      id: ACTIVE_TRANSCODE,
      task: "transcode",
      from: "active",
      to: "cancelling",
    });
    const job = await s.getJob(ACTIVE_TRANSCODE);
    assert.equal(job?.state, "active");
    assert.ok(job!.cancelledAt! >= before);
    assert.equal(job?.cancelReason, "too slow");
    assert.equal(job?.finishedAt, null);
    assert.equal(await count(s, "transcode", "active"), 1);
    assert.equal(await count(s, "transcode", "cancelled"), 0);
  });

  contract("refuses to cancel a finished job (409) or an unknown one", async (s) => {
    await assert.rejects(s.cancelJob(COMPLETED_EMAIL), (error: CodedError) => {
      assert.equal(error.code, "INVALID_STATE");
      assert.equal(error.status, 409);
      assert.ok(error.message.includes("completed"), error.message);
      return true;
    });
    await assert.rejects(s.cancelJob(CANCELLED_EMAIL), code("INVALID_STATE", "cancelled"));
    await assert.rejects(s.cancelJob(UNKNOWN_JOB), code("JOB_NOT_FOUND"));
    assert.equal((await s.getJob(COMPLETED_EMAIL))?.state, "completed");
  });

  // ── retry all, clean ──────────────────────────────────────────────

  contract("retries every failed job of one task", async (s) => {
    const failed = await ids(s, "send-email", "failed");
    assert.deepEqual(await s.retryAllFailed({ task: "send-email" }), { retried: 5 });
    assert.equal(await count(s, "send-email", "failed"), 0);
    const waiting = await s.listJobs("send-email", "waiting", 0, 50);
    assert.equal(waiting.total, 5);
    assert.deepEqual(waiting.jobs.map((job) => job.id).toSorted(), failed.toSorted());
    assert.ok(waiting.jobs.every((job) => job.attempt === 1 && job.error === null));
    // Longest-failed first: the oldest failure runs first.
    assert.equal(waiting.jobs[0].id, FAILED_EMAIL);
    assert.deepEqual(await s.retryAllFailed({ task: "send-email" }), { retried: 0 });
    await assert.rejects(s.retryAllFailed({ task: "no-such-task" }), code("TASK_NOT_FOUND"));
  });

  contract("retries every failed job of every task", async (s) => {
    assert.deepEqual(await s.retryAllFailed(), { retried: 5 });
    const stats = await s.getStats(await s.listTasks());
    assert.equal([...stats.values()].reduce((sum, st) => sum + st.failed, 0), 0);
    assert.equal((await s.listDeadLetters(0, 10)).total, 0);
  });

  contract("a retry-all asks before each batch and, refused, stops with what it did", async (s) => {
    const refuse = () => Promise.resolve(false);
    assert.deepEqual(await s.retryAllFailed({ task: "send-email" }, refuse), { retried: 0 });
    assert.deepEqual(await s.retryAllFailed({ task: undefined }, refuse), { retried: 0 });
    assert.deepEqual(await s.retryAllFailed({ pattern: "Mailbox full" }, refuse), {
      retried: 0,
    });
    assert.equal(await count(s, "send-email", "failed"), 5, "nothing was written");
    let asked = 0;
    const once = () => Promise.resolve(asked++ === 0);
    assert.deepEqual(
      await s.retryAllFailed({ pattern: "Mailbox full", task: "send-email" }, once),
      {
        retried: 2,
      },
    );
    assert.equal(await count(s, "send-email", "failed"), 3);
  });

  contract("groups, lists and retries the dead letters by their errors as shown", async (s) => {
    // As redaction would: every error shown alike, so no stored difference decides a group.
    const shown = (message: string) => message.replace(/.+/, "hidden 42");
    const groups = await s.groupDeadLetters(undefined, shown);
    assert.deepEqual(groups.map((g) => [g.pattern, g.sample, g.count]), [
      ["hidden <n>", "hidden 42", 5],
    ]);
    assert.equal((await s.listDeadLetters(0, 10, { pattern: "hidden <n>", shown })).total, 5);
    assert.equal((await s.listDeadLetters(0, 10, { pattern: "Mailbox full", shown })).total, 0);
    assert.deepEqual(await s.retryAllFailed({ pattern: "Mailbox full", shown }), { retried: 0 });
    assert.deepEqual(await s.retryAllFailed({ pattern: "hidden <n>", shown }), { retried: 5 });
    assert.equal(await count(s, "send-email", "failed"), 0);
  });

  contract("cleans finished jobs of a state with their logs", async (s) => {
    const completed = await ids(s, "send-email", "completed");
    assert.deepEqual(await s.cleanJobs("send-email", "completed", 0), { removed: 10 });
    assert.equal(await count(s, "send-email", "completed"), 0);
    for (const id of completed) assert.equal(await s.getJob(id), null);
    assert.equal(await count(s, "send-email", "failed"), 5, "other states stay");
    assert.deepEqual(await s.cleanJobs("send-email", "completed", 0), { removed: 0 });
  });

  contract("retries the failed jobs of one error group only", async (s) => {
    assert.deepEqual(await s.retryAllFailed({ pattern: "Mailbox full" }), { retried: 2 });
    const groups = await s.groupDeadLetters();
    assert.deepEqual(groups.map((g) => [g.pattern, g.count]), [["SMTP timeout", 3]]);
    assert.equal(await count(s, "send-email", "waiting"), 2);
    assert.deepEqual(await s.retryAllFailed({ pattern: "Mailbox full", task: "send-email" }), {
      retried: 0,
    });
    await assert.rejects(
      s.retryAllFailed({ pattern: "SMTP timeout", task: "nope" }),
      code("TASK_NOT_FOUND"),
    );
  });

  contract("counts what a clean would remove, removing nothing", async (s) => {
    const dryRun = { dryRun: true };
    assert.deepEqual(await s.cleanJobs("send-email", "completed", 0, dryRun), { removed: 10 });
    assert.deepEqual(
      await s.cleanJobs("send-email", "failed", 3_650 * DAY, dryRun),
      { removed: 0 },
    );
    assert.deepEqual(await s.cleanJobs("send-email", "cancelled", 60_000, dryRun), { removed: 1 });
    assert.equal(await count(s, "send-email", "completed"), 10, "a count removes nothing");
    await assert.rejects(
      s.cleanJobs("no-such-task", "completed", 0, dryRun),
      code("TASK_NOT_FOUND"),
    );
    await assert.rejects(
      s.cleanJobs("send-email", "waiting" as "completed", 0, dryRun),
      code("INVALID_PARAM"),
    );
  });

  contract("cleans only jobs older than the given age", async (s) => {
    assert.deepEqual(await s.cleanJobs("send-email", "failed", 3_650 * DAY), { removed: 0 });
    assert.equal(await count(s, "send-email", "failed"), 5);
    assert.deepEqual(await s.cleanJobs("send-email", "cancelled", 60_000), { removed: 1 });
    assert.equal(await s.getJob(CANCELLED_EMAIL), null);
    await assert.rejects(s.cleanJobs("no-such-task", "completed", 0), code("TASK_NOT_FOUND"));
  });

  // ── schedules ─────────────────────────────────────────────────────

  contract("pauses and resumes schedules", async (s) => {
    const paused = await s.updateSchedule("heartbeat", { paused: true });
    assert.equal(paused.paused, true);
    assert.equal(paused.nextRun, null);
    assert.equal(paused.lastJobId, "49e833ba-6ef4-41a3-9c4a-827a99ffcd1b");
    assert.deepEqual(paused.config, {
      task: "report",
      every: 1000,
      onMissed: "skip",
      overlap: false,
    });
    // The list says when it read the last run's state (an update does not read it).
    const { lastRunStatusAt: _readAt, ...listed } = (await s.listSchedules())
      .find((schedule) => schedule.name === "heartbeat")!;
    assert.deepEqual(listed, paused);

    const before = Date.now();
    const weekly = await s.updateSchedule("weekly-cleanup", { paused: false });
    const after = Date.now();
    assert.equal(weekly.paused, false);
    assert.ok(weekly.nextRun! >= before + 604_800_000 && weekly.nextRun! <= after + 604_800_000);

    // As taskora's resume: the next run is computed from now, paused or not.
    const nightly = await s.updateSchedule("nightly-report", { paused: false });
    assert.equal(nightly.paused, false);
    const low = nextRunOf({ cron: "0 3 * * *" }, before);
    const high = nextRunOf({ cron: "0 3 * * *" }, Date.now());
    assert.ok(nightly.nextRun! >= low && nightly.nextRun! <= high, `${nightly.nextRun}`);
    assert.equal(new Date(nightly.nextRun!).getUTCHours(), 3);
  });

  contract("changes a schedule and pauses or resumes it in one patch", async (s) => {
    const paused = await s.updateSchedule("heartbeat", { every: 5_000, paused: true });
    assert.equal(paused.paused, true);
    assert.equal(paused.nextRun, null);
    assert.equal(paused.config.every, 5_000);

    const before = Date.now();
    const resumed = await s.updateSchedule("heartbeat", { every: 60_000, paused: false });
    assert.equal(resumed.paused, false);
    assert.equal(resumed.config.every, 60_000);
    assert.ok(resumed.nextRun! >= before + 60_000 && resumed.nextRun! <= Date.now() + 60_000);
  });

  contract("triggers a schedule: one job of its task, its next run unmoved", async (s) => {
    const { jobId } = await s.triggerSchedule("nightly-report");
    const job = await s.getJob(jobId);
    assert.ok(job);
    assert.equal(job.task, "report");
    assert.equal(job.state, "waiting");
    assert.deepEqual(job.data, { scope: "all" });
    assert.equal(job.attempt, 1);
    assert.equal(job.version, 1);
    assert.equal(job.workflow, null);
    assert.deepEqual(await ids(s, "report", "waiting"), [jobId]);
    const nightly = (await s.listSchedules()).find((schedule) =>
      schedule.name === "nightly-report"
    );
    assert.equal(nightly?.nextRun, fixtureTime(1795402800000));
    assert.equal(nightly?.lastJobId, null, "a manual trigger is not a scheduler run");

    const second = await s.triggerSchedule("heartbeat");
    assert.notEqual(second.jobId, jobId);
    assert.equal((await s.getJob(second.jobId))?.data, null);
    assert.equal(await count(s, "report", "waiting"), 2);
    const heartbeat = (await s.listSchedules()).find((schedule) => schedule.name === "heartbeat");
    assert.equal(heartbeat?.nextRun, fixtureTime(1795345693911));
    assert.equal(heartbeat?.lastJobId, "49e833ba-6ef4-41a3-9c4a-827a99ffcd1b");
  });

  contract("a trigger sent again with its idempotency key dispatches nothing more", async (s) => {
    const first = await s.triggerSchedule("nightly-report", "click-1");
    assert.equal(first.created, true);
    const again = await s.triggerSchedule("nightly-report", "click-1");
    assert.deepEqual(again, { jobId: first.jobId, created: false });
    assert.deepEqual(await ids(s, "report", "waiting"), [first.jobId]);

    const otherClick = await s.triggerSchedule("nightly-report", "click-2");
    const otherSchedule = await s.triggerSchedule("heartbeat", "click-1");
    assert.equal(otherClick.created && otherSchedule.created, true);
    assert.equal(new Set([first.jobId, otherClick.jobId, otherSchedule.jobId]).size, 3);
    assert.equal(await count(s, "report", "waiting"), 3);
    assert.equal((await s.triggerSchedule("nightly-report")).created, true, "no key: a new run");

    await assert.rejects(
      () => s.triggerSchedule("nightly-report", "has space"),
      (error: Error & { code?: string }) =>
        error.code === "INVALID_PARAM" && /idempotencyKey/.test(error.message),
    );
    await assert.rejects(
      () => s.triggerSchedule("nightly-report", "x".repeat(201)),
      (error: Error & { code?: string }) => error.code === "INVALID_PARAM",
    );
  });

  contract("a triggered job carries the task's newest version and attempts", async (s) => {
    const invoice = await s.getJob((await s.triggerSchedule("invoices")).jobId);
    assert.deepEqual(invoice?.data, { run: "monthly" });
    assert.equal(invoice?.version, 2, "the highest _v of billing's jobs");
    assert.equal(invoice?.maxAttempts, 3);
    assert.equal(invoice?.priority, 0);
    assert.equal((await ids(s, "billing", "waiting"))[3], invoice?.id, "after w1..w3");
    const thumbnail = await s.getJob((await s.triggerSchedule("thumbnails")).jobId);
    assert.equal(thumbnail?.version, 3);
    assert.equal(thumbnail?.maxAttempts, 1);
  }, withMoreSchedules(dump));

  contract(
    "a trigger says which version it stamped, learnt from the task's jobs, and that it set no TTL",
    async (s) => {
      const answer = await s.triggerSchedule("invoices");
      assert.equal(answer.version, 2);
      assert.equal(answer.versionFrom, "recent-jobs");
      assert.equal(answer.expireAtFrom, "not-set");
      assert.equal((await s.getJob(answer.jobId))?.expireAt, null);
    },
    withMoreSchedules(dump),
  );

  contract(
    "a trigger with no job to learn the version from is refused, nothing dispatched",
    async (s) => {
      await assert.rejects(
        () => s.triggerSchedule("ghost-sync"),
        code("VERSION_UNKNOWN", "createBoard(app)"),
      );
      await assert.rejects(() => s.listJobs("ghost", "waiting", 0, 10), code("TASK_NOT_FOUND"));
    },
    withMoreSchedules(dump),
  );

  contract("updates a schedule: cron and every replace each other", async (s) => {
    const before = Date.now();
    const hourly = await s.updateSchedule("heartbeat", { cron: "0 * * * *" });
    assert.equal(hourly.config.cron, "0 * * * *");
    assert.equal(hourly.config.every, undefined);
    assert.equal(hourly.lastJobId, "49e833ba-6ef4-41a3-9c4a-827a99ffcd1b");
    assert.ok(hourly.nextRun! > before && hourly.nextRun! <= before + 3_600_000);
    assert.equal(new Date(hourly.nextRun!).getUTCMinutes(), 0);

    const berlin = await s.updateSchedule("nightly-report", { timezone: "Europe/Berlin" });
    assert.equal(berlin.config.timezone, "Europe/Berlin");
    assert.equal(berlin.config.cron, "0 3 * * *");
    assert.equal(berlin.nextRun, nextRunOf(berlin.config, Date.now()));
    const utc = await s.updateSchedule("nightly-report", { timezone: null });
    assert.equal(utc.config.timezone, undefined);

    const every = await s.updateSchedule("nightly-report", {
      every: 60_000,
      data: { scope: "eu" },
      overlap: true,
    });
    const after = Date.now();
    assert.equal(every.config.cron, undefined);
    assert.equal(every.config.timezone, undefined);
    assert.equal(every.config.every, 60_000);
    assert.deepEqual(every.config.data, { scope: "eu" });
    assert.equal(every.config.overlap, true);
    assert.equal(every.config.onMissed, "skip");
    assert.ok(every.nextRun! >= before + 60_000 && every.nextRun! <= after + 60_000);
    assert.deepEqual(
      (await s.listSchedules()).find((schedule) => schedule.name === "nightly-report"),
      every,
    );
  });

  contract("an update keeps a paused schedule paused", async (s) => {
    const weekly = await s.updateSchedule("weekly-cleanup", { every: 86_400_000 });
    assert.equal(weekly.paused, true);
    assert.equal(weekly.nextRun, null);
    assert.equal(weekly.config.every, 86_400_000);
  });

  contract("refuses an invalid cron or an unknown schedule", async (s) => {
    await assert.rejects(
      s.updateSchedule("nightly-report", { cron: "not a cron" }),
      code("INVALID_PARAM"),
    );
    await assert.rejects(
      s.updateSchedule("nightly-report", { timezone: "Mars/Olympus_Mons" }),
      code("INVALID_PARAM"),
    );
    const nightly = (await s.listSchedules()).find((schedule) =>
      schedule.name === "nightly-report"
    );
    assert.equal(nightly?.config.cron, "0 3 * * *", "a refused update changes nothing");
    assert.equal(nightly?.config.timezone, undefined);
    for (
      const action of [
        () => s.updateSchedule("nope", { paused: true }),
        () => s.updateSchedule("nope", { paused: false }),
        () => s.triggerSchedule("nope"),
        () => s.updateSchedule("nope", { every: 1000 }),
        () => s.removeSchedule("nope"),
      ]
    ) {
      await assert.rejects(action(), code("SCHEDULE_NOT_FOUND"));
    }
  });

  contract(
    'refuses an empty or blank cron: cron-parser would read "" as every minute',
    async (s) => {
      for (const cron of ["", "   "]) {
        await assert.rejects(s.updateSchedule("nightly-report", { cron }), code("INVALID_PARAM"));
      }
      const nightly = (await s.listSchedules()).find((schedule) =>
        schedule.name === "nightly-report"
      );
      assert.equal(nightly?.config.cron, "0 3 * * *", "a refused update changes nothing");
    },
  );

  contract("holds a patch to the rules the API holds a request to", async (s) => {
    const refused: [SchedulePatch, string][] = [
      [{ every: 999 }, "every"],
      [{ cron: "0 3 * * *", every: 60_000 }, "cron"],
      [{ cron: `0 3 * * *${" ".repeat(200)}` }, "cron"],
      [{ onMissed: "catch-up-limit:" }, "onMissed"],
    ];
    for (const [patch, param] of refused) {
      await assert.rejects(s.updateSchedule("heartbeat", patch), (error: unknown) => {
        assert.ok(error instanceof BoardError && error.code === "INVALID_PARAM", String(error));
        assert.equal(error.param, param, `${JSON.stringify(patch)}: ${error.message}`);
        return true;
      });
    }
    assert.equal((await s.updateSchedule("heartbeat", { every: 1000 })).config.every, 1000);
  });

  contract("removes a schedule", async (s) => {
    assert.equal(await s.removeSchedule("weekly-cleanup"), undefined);
    assert.deepEqual((await s.listSchedules()).map((schedule) => schedule.name), [
      "heartbeat",
      "nightly-report",
    ]);
    await assert.rejects(s.removeSchedule("weekly-cleanup"), code("SCHEDULE_NOT_FOUND"));
  });

  // ── workflows ─────────────────────────────────────────────────────

  contract("a running workflow's nodes carry their own job's state", async (s) => {
    const workflow = await s.getWorkflow(RUNNING_WORKFLOW);
    assert.deepEqual(workflow?.nodes.map((node) => [node.state, node.jobState]), [
      ["completed", "completed"],
      ["active", "active"],
      ["pending", "waiting"],
      ["pending", null],
    ], "a pending root already has a waiting job; a node never dispatched has none");
  }, running);

  /** The running workflow's nodes' `notStarted`: only node 3 (sum) has no job. */
  const notStarted = async (s: TaskSource) =>
    (await s.getWorkflow(RUNNING_WORKFLOW))?.nodes.map((node) => node.notStarted);

  contract(
    "a node with no job yet says it waits for its unfinished parents, each with its state",
    async (s) => {
      assert.deepEqual(await notStarted(s), [null, null, null, {
        code: "workflowParents",
        summary:
          "it starts once its parent nodes complete: #1 square (active), #2 square (waiting)",
        evidence: { parents: ["#1 square: active", "#2 square: waiting"] },
      }]);
    },
    running,
  );

  contract("a node with no job in a cancelled workflow says it will never start", async (s) => {
    await s.cancelWorkflow(RUNNING_WORKFLOW, "operator stop");
    assert.deepEqual(await notStarted(s), [null, null, null, {
      code: "workflowEnded",
      summary: "its workflow was cancelled before its parent nodes completed: it will never start",
      evidence: { workflowState: "cancelled" },
    }]);
  }, running);

  contract(
    "cancels a running workflow: open node jobs cancelled or signalled, finished ones kept",
    async (s) => {
      const before = Date.now();
      assert.deepEqual(await s.cancelWorkflow(RUNNING_WORKFLOW, "operator stop"), {
        cancelled: 2,
        signalled: 1,
      });
      const workflow = await s.getWorkflow(RUNNING_WORKFLOW);
      assert.equal(workflow?.state, "cancelled");
      assert.equal(workflow?.error, "operator stop");
      assert.deepEqual(workflow?.nodes.map((node) => node.state), [
        "completed",
        "cancelled",
        "cancelled",
        "cancelled",
      ]);
      assert.equal((await s.getJob("wf-run-0"))?.state, "completed");
      const runningNode = await s.getJob("wf-run-1");
      assert.equal(runningNode?.state, "active");
      assert.ok(runningNode!.cancelledAt! >= before);
      assert.equal(runningNode?.cancelReason, "operator stop");
      const rootNode = await s.getJob("wf-run-2");
      assert.equal(rootNode?.state, "cancelled", "a pending root's waiting job is cancelled too");
      assert.equal(rootNode?.cancelReason, "operator stop");
      assert.equal(await s.getJob("wf-run-3"), null, "a never-dispatched node gets no job");
      assert.equal(await count(s, "square", "waiting"), 0);
      assert.equal(await count(s, "square", "active"), 1);
      await assert.rejects(s.cancelWorkflow(RUNNING_WORKFLOW), code("INVALID_STATE", "cancelled"));
    },
    running,
  );

  contract("a cancelled workflow leaves the running list at once", async (s) => {
    const running = await s.listWorkflows(0, 10, "running");
    assert.deepEqual(running.workflows.map((w) => w.id), [RUNNING_WORKFLOW]);
    await s.cancelWorkflow(RUNNING_WORKFLOW);
    assert.deepEqual(await s.listWorkflows(0, 10, "running"), { workflows: [], total: 0 });
    const cancelled = await s.listWorkflows(0, 10, "cancelled");
    assert.equal(cancelled.total, 2);
    assert.equal(cancelled.workflows[0].id, RUNNING_WORKFLOW, "the newest first");
  }, running);

  contract("a workflow cancel without a reason gives node jobs taskora's default", async (s) => {
    await s.cancelWorkflow(RUNNING_WORKFLOW);
    assert.equal((await s.getWorkflow(RUNNING_WORKFLOW))?.error, null);
    assert.equal((await s.getJob("wf-run-2"))?.cancelReason, "workflow cancelled");
    assert.equal((await s.getJob("wf-run-1"))?.cancelReason, "workflow cancelled");
  }, running);

  contract("refuses to cancel a finished or unknown workflow", async (s) => {
    await assert.rejects(s.cancelWorkflow(COMPLETED_CHORD), code("INVALID_STATE", "completed"));
    assert.equal((await s.getWorkflow(COMPLETED_CHORD))?.state, "completed");
    await assert.rejects(s.cancelWorkflow("no-such-workflow"), code("WORKFLOW_NOT_FOUND"));
  });
}
