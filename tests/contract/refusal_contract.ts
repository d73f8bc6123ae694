/**
 * The refusal contract: every adapter, as its factory makes it, refuses the
 * same arguments and the same unknown task the same way (`checked.ts`
 * applies the refusals once, around each). Run on the memory and Redis
 * sources and on both App sources (`app_contract_test.ts`).
 */

import assert from "node:assert/strict";
import { BoardError } from "../../src/errors.ts";
import type {
  FinishedState,
  JobState,
  RetryableState,
  TaskSource,
} from "../../src/source/types.ts";
import type { Harness } from "./source_contract.ts";

/**
 * Opens a fresh source that knows the task {@link KNOWN_TASK} and the
 * schedule {@link KNOWN_SCHEDULE}.
 */
export type OpenKnown = () => Promise<Harness>;

/** The task every source of the contract knows. */
export const KNOWN_TASK = "send-email";
/** The schedule every source of the contract knows. */
export const KNOWN_SCHEDULE = "nightly-report";

const UNKNOWN_TASK = "no-such-task";

/** Asserts `call` is refused with `code`, naming `param` when given. */
async function refused(
  call: () => Promise<unknown> | undefined,
  code: string,
  param?: string,
): Promise<void> {
  await assert.rejects(async () => await call(), (error: unknown) => {
    assert.ok(error instanceof BoardError, `not a BoardError: ${error}`);
    assert.equal(error.code, code, error.message);
    if (param !== undefined) assert.equal(error.param, param, error.message);
    return true;
  });
}

/** Registers the refusal contract tests for one adapter. */
export function refusalContract(name: string, open: OpenKnown): void {
  function contract(title: string, body: (source: TaskSource) => Promise<void>): void {
    Deno.test(`${name}: refuses ${title}`, async () => {
      const harness = await open();
      try {
        await body(harness.source);
      } finally {
        await harness.close();
      }
    });
  }

  contract("a task it does not know, in every method that names one", async (s) => {
    const ghost = UNKNOWN_TASK;
    const calls: [string, (() => Promise<unknown>) | undefined][] = [
      ["getTaskStorage", () => s.getTaskStorage(ghost)],
      ["getFinishedTimings", () => s.getFinishedTimings(ghost, 10)],
      ["listJobs", () => s.listJobs(ghost, "waiting", 0, 10)],
      ["getVersionDistribution", () => s.getVersionDistribution(ghost)],
      ["listDeadLetters", () => s.listDeadLetters(0, 10, ghost)],
      ["groupDeadLetters", () => s.groupDeadLetters(ghost)],
      ["getThroughput", () => s.getThroughput({ task: ghost })],
      ["retryAllFailed", () => s.retryAllFailed({ task: ghost })],
      [
        "retryAllFailed of a group",
        () => s.retryAllFailed({ pattern: "SMTP timeout", task: ghost }),
      ],
      ["cleanJobs", () => s.cleanJobs(ghost, "completed", 0)],
      ["cleanJobs dry run", () => s.cleanJobs(ghost, "completed", 0, { dryRun: true })],
      ["countBulk", s.countBulk && (() => s.countBulk!("retry", { task: ghost, state: "failed" }))],
      ["bulkStep", s.bulkStep && (() => s.bulkStep!(ghost, "retry", { ids: ["x"] }))],
      ["getTaskDefinition", s.getTaskDefinition && (() => s.getTaskDefinition!(ghost))],
      [
        "readLocks of jobs",
        s.readLocks && (() => s.readLocks!({ kind: "jobs", task: ghost, jobIds: [] })),
      ],
      [
        "readLocks of active jobs",
        s.readLocks && (() => s.readLocks!({ kind: "active", task: ghost, limit: 10 })),
      ],
      ["scanMechanics", s.scanMechanics && (() => s.scanMechanics!(ghost, null))],
    ];
    for (const [method, call] of calls) {
      if (!call) continue;
      await assert.rejects(call, (error: unknown) => {
        assert.ok(error instanceof BoardError, `${method}: ${error}`);
        assert.equal(error.code, "TASK_NOT_FOUND", `${method}: ${error.message}`);
        assert.equal(error.message, `Task "${ghost}" not found`);
        return true;
      });
    }
    assert.equal((await s.listJobs(KNOWN_TASK, "waiting", 0, 10)).jobs.length >= 0, true);
  });

  contract("a page's offset or limit that is not a whole number, 0 or more", async (s) => {
    await refused(() => s.listJobs(KNOWN_TASK, "waiting", -1, 10), "INVALID_PARAM", "offset");
    await refused(() => s.listJobs(KNOWN_TASK, "waiting", 0, -1), "INVALID_PARAM", "limit");
    await refused(() => s.listJobs(KNOWN_TASK, "waiting", 0.5, 10), "INVALID_PARAM", "offset");
    await refused(() => s.listDeadLetters(-1, 10), "INVALID_PARAM", "offset");
    await refused(() => s.listWorkflows(0, Number.NaN), "INVALID_PARAM", "limit");
    await refused(() => s.getJobLogs("any-job", -5, 10), "INVALID_PARAM", "offset");
    await refused(() => s.getFinishedTimings(KNOWN_TASK, -1), "INVALID_PARAM", "limit");
    await refused(() => s.findJobsByIdPrefix("abcd", -1), "INVALID_PARAM", "limit");
  });

  contract("a job state the port does not have", async (s) => {
    await refused(
      () => s.listJobs(KNOWN_TASK, "sleeping" as JobState, 0, 10),
      "INVALID_PARAM",
      "state",
    );
  });

  contract("throughput buckets that are not whole minutes, or no bucket", async (s) => {
    await refused(() => s.getThroughput({ bucketMs: 1_000 }), "INVALID_PARAM", "bucketMs");
    await refused(() => s.getThroughput({ count: 0 }), "INVALID_PARAM", "count");
    await refused(
      () => s.getThroughputByTask([KNOWN_TASK], { count: -1 }),
      "INVALID_PARAM",
      "count",
    );
  });

  contract("a retry from a state no job is retried from", async (s) => {
    await refused(() => s.retryJob("any-job", { from: [] }), "INVALID_PARAM", "from");
    await refused(
      () => s.retryJob("any-job", { from: ["completed" as RetryableState] }),
      "INVALID_PARAM",
      "from",
    );
  });

  contract("an argument before it looks the task up", async (s) => {
    await refused(
      () => s.cleanJobs(UNKNOWN_TASK, "waiting" as FinishedState, 0),
      "INVALID_PARAM",
      "state",
    );
    await refused(
      () => s.cleanJobs(UNKNOWN_TASK, "completed", -1, { dryRun: true }),
      "INVALID_PARAM",
      "olderThan",
    );
  });

  contract("a schedule change the scheduler cannot run, naming the field", async (s) => {
    await refused(
      () => s.updateSchedule(KNOWN_SCHEDULE, { paused: "yes" as unknown as boolean }),
      "INVALID_PARAM",
      "paused",
    );
    await refused(() => s.updateSchedule(KNOWN_SCHEDULE, { every: 5 }), "INVALID_PARAM", "every");
    await refused(
      () => s.updateSchedule(KNOWN_SCHEDULE, { cron: "0 3 * * *", every: 60_000 }),
      "INVALID_PARAM",
      "cron",
    );
  });
}
