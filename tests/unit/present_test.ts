import assert from "node:assert/strict";
import type { JobRecord } from "../../src/contract/jobs.ts";
import { UNPRESENTABLE } from "../../src/contract/masks.ts";
import { createPresenter } from "../../src/contract/present.ts";
import type { WorkflowDetail } from "../../src/contract/workflows.ts";

const present = createPresenter({
  redact: ["password"],
  formatters: {
    // The formatter sees the value before redaction; what it returns is redacted after.
    data: (value, task) => task === "wrap" ? { wrapped: value } : value,
    result: (value, task) => {
      if (task === "broken") throw new Error("formatter bug");
      return task === "wrap" ? { wrapped: value } : value;
    },
  },
});

function record(fields: Partial<JobRecord> = {}): JobRecord {
  return {
    id: "j1",
    task: "wrap",
    state: "failed",
    data: { to: "ada@x.io", password: "s3cret" },
    result: null,
    error: '{"message":"denied","password":"s3cret"}',
    progress: { step: 2, password: "p" },
    attempt: 2,
    maxAttempts: 3,
    version: 4,
    priority: 0,
    createdAt: 100,
    processedAt: 150,
    finishedAt: 180,
    runAt: null,
    cancelledAt: null,
    cancelReason: null,
    expireAt: null,
    stalledCount: 0,
    workflow: null,
    ...fields,
  };
}

/** Runs `body` with console.warn silenced, returning what was warned. */
function warned(body: () => void): string[] {
  const warnings: string[] = [];
  const original = console.warn;
  console.warn = (...args: unknown[]) => warnings.push(args.join(" "));
  try {
    body();
  } finally {
    console.warn = original;
  }
  return warnings;
}

Deno.test("job() groups the times, rebuilds the timeline, redacts, and carries no payload", () => {
  assert.deepEqual(present.job(record()), {
    id: "j1",
    task: "wrap",
    state: "failed",
    error: '{"message":"denied","password":"[REDACTED]"}',
    progress: { step: 2, password: "[REDACTED]" },
    attempt: 2,
    maxAttempts: 3,
    version: 4,
    priority: 0,
    timestamps: {
      created: 100,
      processed: 150,
      finished: 180,
      runAt: null,
      cancelled: null,
      expireAt: null,
    },
    timeline: [
      { state: "waiting", at: 100 },
      { state: "active", at: 150 },
      { state: "failed", at: 180 },
    ],
    cancelReason: null,
    stalledCount: 0,
    workflow: null,
  });
});

Deno.test("jobDetail() shows a value its formatter cannot present as a marker, never raw", () => {
  let job;
  const warnings = warned(() =>
    job = present.jobDetail({ ...record({ task: "broken", result: 7 }), logs: [], logCount: 0 })
  );
  assert.equal(job!.result, UNPRESENTABLE);
  assert.deepEqual(job!.data, { to: "ada@x.io", password: "[REDACTED]" }, "the rest is shown");
  assert.equal(warnings.length, 1);
  assert.match(warnings[0], /the result of a broken job/);
});

Deno.test("jobDetail() adds the logs, their meta redacted, and the log's size", () => {
  const detail = present.jobDetail({
    ...record(),
    logs: [
      { level: "info", message: "start", timestamp: 1 },
      { level: "warn", message: "retry", meta: { password: "p", n: 1 }, timestamp: 2 },
    ],
    logCount: 250,
  });
  assert.deepEqual(detail.logs, [
    { level: "info", message: "start", timestamp: 1, index: 248 },
    {
      level: "warn",
      message: "retry",
      meta: { password: "[REDACTED]", n: 1 },
      timestamp: 2,
      index: 249,
    },
  ]);
  assert.deepEqual(detail.data, { wrapped: { to: "ada@x.io", password: "[REDACTED]" } });
  assert.equal(detail.logCount, 250);
  assert.equal(detail.timeline.length, 3);
});

Deno.test("error() redacts the keys of a JSON error and the values they label in a plain one", () => {
  assert.equal(present.error('[{"password":"p"}]'), '[{"password":"[REDACTED]"}]');
  assert.equal(present.error("password=p is wrong"), "password=[REDACTED] is wrong");
  assert.equal(present.error("{not json, PASSWORD: p}"), "{not json, PASSWORD: [REDACTED]");
  assert.equal(present.error("passwords=3 tried"), "passwords=3 tried", "a longer name");
  const plain = createPresenter({ redact: [], formatters: {} });
  assert.equal(plain.error('{ "spaced": 1 }'), '{ "spaced": 1 }', "nothing to redact: untouched");
});

Deno.test("schedule() formats and redacts its data as its task's; no data, no change", () => {
  const schedule = {
    name: "nightly",
    config: { task: "wrap", cron: "0 3 * * *", data: { password: "p" } },
    nextRun: 5,
    lastRun: null,
    lastJobId: null,
    lastRunStatus: null,
    paused: false,
  };
  assert.deepEqual(present.schedule(schedule).config, {
    task: "wrap",
    cron: "0 3 * * *",
    data: { wrapped: { password: "[REDACTED]" } },
  });
  const { data: _, ...bare } = schedule.config;
  const none = { ...schedule, config: bare };
  assert.equal(present.schedule(none), none);
});

function workflow(terminal: number[]): WorkflowDetail {
  const node = (index: number, taskName: string) => ({
    index,
    taskName,
    jobId: `n${index}`,
    deps: [],
    state: "completed",
    jobState: "completed" as const,
    result: { password: "p", index },
    error: null,
    notStarted: null,
  });
  return {
    id: "w",
    name: null,
    state: "completed",
    createdAt: 1,
    nodeCount: 2,
    tasks: ["wrap", "plain"],
    graph: {
      nodes: [
        { taskName: "wrap", deps: [], jobId: "n0", _v: 1, data: { password: "p" } },
        { taskName: "plain", deps: [0], jobId: "n1", _v: 2 },
      ],
      terminal,
    },
    nodes: [node(0, "wrap"), node(1, "plain")],
    result: { password: "p" },
    error: null,
  };
}

Deno.test("workflow() presents each node's input and result as its own task's", () => {
  const shown = present.workflow(workflow([1]));
  assert.deepEqual(shown.graph.nodes, [
    {
      taskName: "wrap",
      deps: [],
      jobId: "n0",
      _v: 1,
      data: { wrapped: { password: "[REDACTED]" } },
    },
    { taskName: "plain", deps: [0], jobId: "n1", _v: 2 },
  ]);
  assert.deepEqual(shown.nodes.map((node) => node.result), [
    { wrapped: { password: "[REDACTED]", index: 0 } },
    { password: "[REDACTED]", index: 1 },
  ]);
  assert.deepEqual(shown.result, { password: "[REDACTED]" }, "the terminal's task: plain");
});

Deno.test("workflow() formats the result by the one terminal's task, else only redacts it", () => {
  assert.deepEqual(present.workflow(workflow([0])).result, {
    wrapped: { password: "[REDACTED]" },
  });
  assert.deepEqual(present.workflow(workflow([0, 1])).result, { password: "[REDACTED]" });
});
