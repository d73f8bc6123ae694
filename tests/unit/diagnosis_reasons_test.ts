/**
 * `diagnose()`: the facts of one job, and what the board knows beside
 * them, in plain words, first what decides; the job's keys only for a user
 * who may read its payloads.
 */

import { windowRate } from "../../src/contract/queue_eta.ts";
import assert from "node:assert/strict";
import type { JobHolds } from "../../src/contract/diagnosis.ts";
import {
  diagnose,
  type DiagnosisContext,
  HIDDEN_KEY,
} from "../../src/contract/diagnosis_reasons.ts";
import type { TaskDefinition } from "../../src/contract/tasks.ts";

const NOW = 10_000_000;

function holds(overrides: Partial<JobHolds> = {}): JobHolds {
  return {
    id: "j9",
    task: "bill",
    state: "waiting",
    attempt: 1,
    maxAttempts: 1,
    version: 1,
    createdAt: NOW - 5_000,
    ahead: 0,
    waiting: 1,
    runAt: null,
    dispatchDelayMs: null,
    concurrency: null,
    dedupKey: null,
    collect: null,
    debounceReplaced: null,
    active: { count: 0, ids: [], locked: 0 },
    expireAt: null,
    cancelRequested: null,
    lock: null,
    ...overrides,
  };
}

function context(overrides: Partial<DiagnosisContext> = {}): DiagnosisContext {
  return {
    now: NOW,
    definition: null,
    migrationLock: null,
    drainRate: windowRate(0),
    activity: {
      lastTakenAt: NOW - 1_000,
      lastFinishedAt: NOW - 900,
      scanned: 50,
      coveredSince: NOW - 90_000,
    },
    eventDepth: 1_000,
    maxIdleMs: 5 * 60_000,
    showKeys: true,
    ...overrides,
  };
}

/** A stream whose newest take was 6 min ago. */
const activity = {
  lastTakenAt: NOW - 6 * 60_000,
  lastFinishedAt: null,
  scanned: 7,
  coveredSince: NOW - 9 * 60_000,
};

const codes = (job: JobHolds, ctx = context()) => diagnose(job, ctx).reasons.map((r) => r.code);

Deno.test("diagnose() estimates a long queue's wait from the last 10 minutes' completions", () => {
  const [queue] =
    diagnose(holds({ ahead: 412, waiting: 413 }), context({ drainRate: windowRate(1_400) }))
      .reasons;
  assert.equal(queue.summary, "412 jobs ahead of it: about 2 min at the last 10 minutes' rate");
  assert.deepEqual(queue.evidence, {
    ahead: 412,
    waiting: 413,
    finished: 1_400,
    spanMs: 600_000,
    keyLimit: null,
  });
  const [far] = diagnose(holds({ ahead: null }), context({ drainRate: windowRate(5) })).reasons;
  assert.equal(far.summary, "more than 10000 jobs ahead of it");
});

Deno.test("diagnose() names a task none of whose jobs were taken for over health.maxIdleMs while jobs wait", () => {
  const [noWorker] = diagnose(holds(), context({ activity })).reasons;
  assert.equal(noWorker.code, "noWorker");
  assert.equal(noWorker.summary, "no worker took a job of bill for 6 min, while 1 job waits");
  assert.equal(noWorker.link, "/tasks/bill");
  assert.deepEqual(
    codes(holds(), context({ activity, maxIdleMs: 10 * 60_000 })),
    ["queue"],
    "within the limit",
  );
  assert.deepEqual(codes(holds()), ["queue"], "taken a second ago: workers are taking jobs");
  const { unknown } = diagnose(holds(), context({ activity: null }));
  assert.match(unknown[1], /whether workers take its task's jobs/);
});

Deno.test("diagnose() reads no take among the newest entries as idle since the oldest of them, unless it read the whole stream", () => {
  // A burst of 1,000 dispatches a second after a worker took a job: the take is older than every entry read.
  const burst = {
    lastTakenAt: null,
    lastFinishedAt: null,
    scanned: 1_000,
    coveredSince: NOW - 1_000,
  };
  assert.deepEqual(
    codes(holds({ ahead: 999, waiting: 1_000 }), context({ activity: burst, eventDepth: 1_000 })),
    ["queue"],
    "idle for a second at least, not for over health.maxIdleMs",
  );
  const longAgo = { ...burst, coveredSince: NOW - 6 * 60_000 };
  const [noWorker] = diagnose(holds(), context({ activity: longAgo, eventDepth: 1_000 })).reasons;
  assert.equal(
    noWorker.summary,
    "no worker took a job of bill for 6 min at least, while 1 job waits",
  );
  const whole = { ...burst, scanned: 5 };
  const [never] = diagnose(holds(), context({ activity: whole, eventDepth: 1_000 })).reasons;
  assert.equal(
    never.summary,
    "no worker took a job of bill in the newest 5 events of its stream, while 1 job waits",
  );
});

Deno.test("diagnose() lists what decides first: the migration lock, then the version, then the rest", () => {
  const definition = { since: 3, singleton: true, hasHandler: true } as TaskDefinition;
  const job = holds({
    version: 2,
    active: { count: 1, ids: ["j1"], locked: 1 },
    concurrency: { key: "acct-1", limit: 2, inUse: 2, holders: ["j1", "j2"] },
    dedupKey: "order-7",
  });
  const migrationLock = {
    by: "taskora-wire-7",
    reason: null,
    startedAt: NOW - 1_000,
    expectedDurationMs: null,
    targetWireVersion: 7,
    expiresInMs: 60_000,
  };
  assert.deepEqual(codes(job, context({ definition, migrationLock })), [
    "migrationLock",
    "versionBelowSince",
    "singleton",
    "concurrencyKey",
    "queue",
    "dedup",
  ]);
  assert.deepEqual(diagnose(job, context({ definition })).unknown, []);
});

Deno.test("diagnose() hides the job's keys, and who shares its concurrency key, without payload.read", () => {
  const job = holds({
    concurrency: { key: "ada@example.com", limit: 1, inUse: 1, holders: ["j1"] },
    dedupKey: "ada@example.com",
  });
  const shown = diagnose(job, context({ showKeys: false })).reasons;
  const concurrency = shown.find((r) => r.code === "concurrencyKey")!;
  assert.equal(concurrency.summary, "its concurrency key is at its limit: 1 of 1");
  assert.deepEqual(concurrency.evidence, { key: HIDDEN_KEY, inUse: 1, limit: 1, holders: null });
  assert.equal(concurrency.link, undefined);
  assert.deepEqual(shown.find((r) => r.code === "dedup")!.evidence, { key: HIDDEN_KEY });
  assert.ok(!JSON.stringify(shown).includes("ada@"), "the key appears nowhere");
});

Deno.test("diagnose() says what only the App knows when the board has a Redis URL only", () => {
  const { unknown } = diagnose(holds(), context());
  assert.deepEqual(unknown, [
    "whether its version is below the task's since or above the task's version, and whether " +
    "the task is a singleton: only the App declares them (createBoard(app))",
  ]);
});

Deno.test("diagnose() of a dedup key: taskora drops a duplicate only while the job's state is one the dispatch's while names", () => {
  const dedupOf = (job: JobHolds) =>
    diagnose(job, context()).reasons.find((r) => r.code === "dedup")!.summary;
  assert.equal(
    dedupOf(holds({ dedupKey: "order-7" })),
    "it holds a dedup key: a dispatch with the same key is dropped as a duplicate of this job " +
      "while its state is one the dispatch's deduplicate.while names (by default waiting, " +
      "delayed or active)",
  );
  // The default while leaves retrying out: the next dispatch makes a job and takes the key.
  assert.equal(
    dedupOf(holds({ state: "retrying", attempt: 2, maxAttempts: 3, dedupKey: "order-7" })),
    "it holds a dedup key, but while it is retrying a dispatch with the same key makes a new " +
      "job and takes the key, unless that dispatch's deduplicate.while names retrying (by " +
      "default waiting, delayed or active)",
  );
});

Deno.test("diagnose() of an active job: its worker renews its lock, or no worker holds it", () => {
  const running = holds({ state: "active", lock: { token: "t1", ttlMs: 25_000 } });
  assert.deepEqual(codes(running), ["running"]);
  // taskora renews a 30 s lock every 10 s: the TTL is how long it lasts without a renewal.
  assert.equal(
    diagnose(running, context()).reasons[0].summary,
    "a worker runs it and renews its lock",
  );
  const lost = holds({ state: "active", waiting: 3, lock: { token: null, ttlMs: null } });
  const activity = {
    lastTakenAt: NOW - 10 * 60_000,
    lastFinishedAt: null,
    scanned: 9,
    coveredSince: null,
  };
  assert.deepEqual(codes(lost, context({ activity })), ["noWorker", "lockLost"]);
});

Deno.test("diagnose() of a finished job: no reasons", () => {
  assert.deepEqual(diagnose(holds({ state: "completed" }), context()), {
    reasons: [],
    unknown: [],
  });
});

Deno.test("diagnose() tells busy workers from missing ones by the live locks of the task's active jobs", () => {
  const busy = holds({ waiting: 2, active: { count: 1, ids: ["j1"], locked: 1 } });
  const [reason] = diagnose(busy, context({ activity })).reasons;
  assert.equal(reason.code, "workersBusy");
  assert.equal(
    reason.summary,
    "every worker of bill is busy: 1 job runs under a live lock, and none was taken for 6 min " +
      "while 2 jobs wait",
  );
  assert.deepEqual([reason.evidence.running, reason.evidence.active], [1, 1]);
  const orphaned = holds({ waiting: 2, active: { count: 1, ids: ["j1"], locked: 0 } });
  assert.deepEqual(codes(orphaned, context({ activity })), ["noWorker", "queue"]);
  // A full concurrency key says why itself: no "every worker is busy" beside it.
  const keyed = holds({
    waiting: 2,
    active: { count: 1, ids: ["j1"], locked: 1 },
    concurrency: { key: "acct-1", limit: 1, inUse: 1, holders: ["j1"] },
  });
  assert.deepEqual(codes(keyed, context({ activity })), ["concurrencyKey", "queue"]);
});

Deno.test("diagnose() reads a due delayed or retrying job as waiting for a worker: taskora promotes it only when one asks", () => {
  const never = { lastTakenAt: null, lastFinishedAt: null, scanned: 2, coveredSince: NOW - 1_000 };
  const retrying = holds({
    state: "retrying",
    attempt: 2,
    maxAttempts: 3,
    ahead: null,
    waiting: 0,
    runAt: NOW - 440_000,
  });
  const { reasons } = diagnose(retrying, context({ activity: never }));
  assert.deepEqual(reasons.map((r) => r.code), ["noWorker", "retryBackoff"]);
  assert.equal(
    reasons[0].summary,
    "no worker took a job of bill in the newest 2 events of its stream, while it has been due " +
      "for 7 min",
  );
  assert.equal(
    reasons[1].summary,
    "attempt 1 of 3 failed: attempt 2 runs once a worker asks for a job (due 7 min ago: " +
      "taskora promotes due jobs only then) (retry backoff)",
  );
  const later = holds({ state: "delayed", ahead: null, waiting: 0, runAt: NOW + 60_000 });
  assert.deepEqual(codes(later, context({ activity: never })), ["dispatchDelay"]);
});
