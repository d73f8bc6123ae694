/**
 * The HistoryStore contract, the same cases on every adapter (memory, Redis,
 * PostgreSQL): idempotent writes keyed by job and event, attempts each with
 * its own error, runs, the feed's last ids saved with a batch, search across
 * tasks, a job found by its id alone, rollups whose hours are the merge of
 * their minutes, caps that say so, and retention (the index by id with them).
 */

import assert from "node:assert/strict";
import { BoardError } from "../../src/errors.ts";
import { binOf, quantileOf } from "../../src/history/sketch.ts";
import { bucketOf, type RollupPoint } from "../../src/history/rollup.ts";
import type { HistoryLimits, HistoryStore } from "../../src/history/store.ts";
import type { HistoryEntry } from "../../src/history/summary.ts";

/** Makes a fresh, empty store with `limits`; `close` ends it and whatever it needed. */
export type MakeHistoryStore = (
  limits?: Partial<HistoryLimits>,
) => Promise<{ store: HistoryStore; close(): Promise<void> }>;

/** Yesterday 03:00 UTC: recent enough for every resolution a store keeps by age. */
export const T0 = bucketOf(Date.now(), "day") - 86_400_000 + 3 * 3_600_000;

let events = 0;

/** An entry of `id` of task `send-email`, version 2, created at T0, run 1 s after for 250 ms. */
export function entry(id: string, fields: Partial<HistoryEntry> = {}): HistoryEntry {
  return {
    task: "send-email",
    id,
    event: `${T0 + 1250}-${events++}`,
    attempt: 1,
    outcome: "completed",
    version: 2,
    createdAt: T0,
    startedAt: T0 + 1000,
    endedAt: T0 + 1250,
    error: null,
    errorShape: null,
    ...fields,
  };
}

/** A job that failed three times, each attempt with its own error, a minute apart. */
function failingThrice(id: string): HistoryEntry[] {
  return [1, 2, 3].map((attempt) =>
    entry(id, {
      attempt,
      outcome: attempt < 3 ? "retrying" : "failed",
      startedAt: T0 + attempt * 60_000,
      endedAt: T0 + attempt * 60_000 + 100,
      error: `gateway timeout #${attempt}`,
      errorShape: "gateway timeout #N",
    })
  );
}

/** The UTC midnight after T0's day. */
export const MIDNIGHT = bucketOf(T0, "day") + 86_400_000;

/** A job created 30 s before {@link MIDNIGHT}, its first attempt ending before it, its second after. */
export function acrossMidnight(id: string): HistoryEntry[] {
  return [
    entry(id, {
      outcome: "retrying",
      createdAt: MIDNIGHT - 30_000,
      startedAt: MIDNIGHT - 20_000,
      endedAt: MIDNIGHT - 10_000,
      error: "gateway timeout",
    }),
    entry(id, {
      attempt: 2,
      createdAt: MIDNIGHT - 30_000,
      startedAt: MIDNIGHT + 5_000,
      endedAt: MIDNIGHT + 10_000,
    }),
  ];
}

/**
 * The entries as the recorder writes them once taskora removed the job: it
 * knows no creation time and falls back to each event's own, so an entry after
 * midnight names the next day.
 */
export function fallenBack(entries: HistoryEntry[]): HistoryEntry[] {
  return entries.map((known) => ({ ...known, createdAt: known.endedAt }));
}

function sum(points: RollupPoint[], field: "completed" | "failed" | "retried" | "arrivals") {
  return points.reduce((total, point) => total + point[field], 0);
}

/** Registers the contract for the stores `make` makes. */
export function historyStoreContract(name: string, make: MakeHistoryStore): void {
  const test = (
    title: string,
    fn: (store: HistoryStore) => Promise<void>,
    limits?: Partial<HistoryLimits>,
  ) =>
    Deno.test(`${name}: ${title}`, async () => {
      const { store, close } = await make(limits);
      try {
        await fn(store);
      } finally {
        await close();
      }
    });

  test("a job failing three times has three attempts, each with its own error", async (store) => {
    assert.deepEqual(await store.write({ entries: failingThrice("j1") }), { recorded: 3 });
    const summary = await store.summary("send-email", "j1");
    assert.ok(summary);
    assert.equal(summary.state, "failed");
    assert.deepEqual(summary.attempts.map((a) => [a.run, a.attempt, a.outcome, a.error]), [
      [1, 1, "retrying", "gateway timeout #1"],
      [1, 2, "retrying", "gateway timeout #2"],
      [1, 3, "failed", "gateway timeout #3"],
    ]);
    assert.deepEqual(summary.runs.map((r) => [r.run, r.state, r.attempts]), [[1, "failed", 3]]);
    assert.equal(summary.waitMs, 60_000);
    assert.equal(summary.runMs, 100);
    assert.equal(summary.errorShape, "gateway timeout #N");
    assert.equal(await store.summary("send-email", "nope"), null);
    assert.equal(await store.summary("other-task", "j1"), null);
  });

  test("writing the same batch twice changes nothing: summaries, rollups, counts", async (store) => {
    const batch = {
      entries: [...failingThrice("j1"), entry("j2")],
      cursors: { "send-email": "5-0" },
    };
    assert.deepEqual(await store.write(batch), { recorded: 4 });
    const summaries = [
      await store.summary("send-email", "j1"),
      await store.summary("send-email", "j2"),
    ];
    const range = { resolution: "minute" as const, from: T0, to: T0 + 3_600_000 };
    const rollups = await store.rollups(range);
    assert.deepEqual(await store.write(batch), { recorded: 0 });
    assert.deepEqual(
      [await store.summary("send-email", "j1"), await store.summary("send-email", "j2")],
      summaries,
    );
    assert.deepEqual(await store.rollups(range), rollups);
    assert.equal((await store.holding()).summaries, 2);
    assert.equal(sum(rollups, "arrivals"), 2);
  });

  const acrossTwoDays = {
    resolution: "day" as const,
    from: MIDNIGHT - 86_400_000,
    to: MIDNIGHT + 1,
  };

  test("a replay whose creation time fell back across a UTC day is still one job, counted once", async (store) => {
    const entries = acrossMidnight("late-1");
    assert.deepEqual(await store.write({ entries }), { recorded: 2 });
    const summary = await store.summary("send-email", "late-1");
    const days = await store.rollups(acrossTwoDays);
    assert.deepEqual(await store.write({ entries: fallenBack(entries) }), { recorded: 0 });
    assert.deepEqual(await store.summary("send-email", "late-1"), summary);
    assert.deepEqual((await store.search({})).summaries, [summary]);
    assert.equal((await store.holding()).summaries, 1);
    assert.deepEqual(await store.rollups(acrossTwoDays), days);
    assert.deepEqual([sum(days, "arrivals"), sum(days, "retried"), sum(days, "completed")], [
      1,
      1,
      1,
    ]);
  });

  test("a job's next entry, its creation time fallen back to the next UTC day, joins its summary", async (store) => {
    const [retrying, completed] = acrossMidnight("late-2");
    await store.write({ entries: [retrying] });
    assert.deepEqual(await store.write({ entries: fallenBack([completed]) }), { recorded: 1 });
    const summaries = (await store.search({})).summaries;
    assert.deepEqual(summaries.map((s) => [s.id, s.state, s.createdAt, s.attempts.length]), [
      ["late-2", "completed", MIDNIGHT - 30_000, 2],
    ]);
    assert.equal(summaries[0].waitMs, 10_000);
    const days = await store.rollups(acrossTwoDays);
    assert.deepEqual([sum(days, "arrivals"), sum(days, "retried"), sum(days, "completed")], [
      1,
      1,
      1,
    ]);
  });

  test("a job first recorded from entries fallen back on two UTC days is one summary", async (store) => {
    await store.write({ entries: fallenBack(acrossMidnight("late-3")) });
    const summaries = (await store.search({})).summaries;
    assert.deepEqual(summaries.map((s) => [s.id, s.createdAt, s.attempts.length]), [
      ["late-3", MIDNIGHT - 10_000, 2],
    ]);
  });

  test("the feed's last ids are saved with the batch that reached them", async (store) => {
    assert.deepEqual(await store.cursors(), {});
    await store.write({
      entries: [entry("a")],
      cursors: { "send-email": "10-0", "resize": "7-1" },
    });
    await store.write({ entries: [], cursors: { "send-email": "12-0" } });
    assert.deepEqual(await store.cursors(), { "send-email": "12-0", "resize": "7-1" });
  });

  test("a job taskora ran again after it completed has two runs; the rerun is counted", async (store) => {
    await store.write({ entries: [entry("r1")] });
    await store.write({
      entries: [entry("r1", { startedAt: T0 + 5000, endedAt: T0 + 5400, event: `${T0 + 5400}-0` })],
    });
    const summary = await store.summary("send-email", "r1");
    assert.deepEqual(summary?.runs.map((r) => [r.run, r.state, r.endedAt]), [
      [1, "completed", T0 + 1250],
      [2, "completed", T0 + 5400],
    ]);
    assert.equal(summary?.runMs, 400);
    const [hour] = await store.rollups({
      resolution: "hour",
      task: "send-email",
      from: T0,
      to: T0 + 3_600_000,
    });
    assert.equal(hour.reruns, 1);
    assert.equal(hour.completed, 2);
    assert.equal(hour.arrivals, 1);
  });

  test("a job's payload sizes are kept as its latest entry read them", async (store) => {
    await store.write({ entries: [entry("s1", { dataBytes: 120, resultBytes: 8 }), entry("s2")] });
    const sized = await store.summary("send-email", "s1");
    assert.deepEqual([sized?.dataBytes, sized?.resultBytes], [120, 8]);
    const unsized = await store.summary("send-email", "s2");
    assert.deepEqual([unsized?.dataBytes, unsized?.resultBytes], [null, null]);
  });

  test("payloads are kept only when the entry carries them", async (store) => {
    await store.write({
      entries: [entry("p1", { data: '{"to":"[redacted]"}', result: '"ok"' }), entry("p2")],
    });
    const kept = await store.summary("send-email", "p1");
    assert.equal(kept?.data, '{"to":"[redacted]"}');
    assert.equal(kept?.result, '"ok"');
    const bare = await store.summary("send-email", "p2");
    assert.equal(bare && "data" in bare, false);
  });

  test("search finds across tasks or in one, by state, window, version, error text, id prefix", async (store) => {
    await store.write({
      entries: [
        ...failingThrice("order-1"),
        entry("order-2", { endedAt: T0 + 2000 }),
        entry("mail-1", { task: "resize", version: 7, endedAt: T0 + 3000 }),
        entry("mail-2", {
          task: "resize",
          outcome: "cancelled",
          startedAt: null,
          endedAt: T0 + 4000,
        }),
      ],
    });
    const ids = async (query: Parameters<HistoryStore["search"]>[0]) =>
      (await store.search(query)).summaries.map((summary) => summary.id);
    assert.deepEqual(await ids({}), ["order-1", "mail-2", "mail-1", "order-2"]);
    assert.deepEqual(await ids({ task: "resize" }), ["mail-2", "mail-1"]);
    assert.deepEqual(await ids({ states: ["completed"] }), ["mail-1", "order-2"]);
    assert.deepEqual(await ids({ from: T0 + 2000, to: T0 + 4000 }), ["mail-1", "order-2"]);
    assert.deepEqual(await ids({ version: 7 }), ["mail-1"]);
    assert.deepEqual(await ids({ errorText: "TIMEOUT #1" }), ["order-1"]);
    assert.deepEqual(await ids({ idPrefix: "mail-" }), ["mail-2", "mail-1"]);
    assert.deepEqual(await ids({ task: "send-email", idPrefix: "mail-" }), []);
  });

  test("search pages with a cursor: every summary once, none skipped", async (store) => {
    const entries = Array.from(
      { length: 25 },
      (_, i) =>
        entry(`job-${String(i).padStart(2, "0")}`, { endedAt: T0 + 10_000 + (i % 5) * 1000 }),
    );
    await store.write({ entries });
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 20; pages++) {
      const page = await store.search({ limit: 4, cursor });
      assert.ok(page.summaries.length <= 4);
      seen.push(...page.summaries.map((summary) => summary.id));
      if (page.next === null) break;
      cursor = page.next;
    }
    assert.equal(seen.length, 25);
    assert.equal(new Set(seen).size, 25);
    const ends = seen.map((id) => entries.find((e) => e.id === id)!.endedAt);
    assert.deepEqual(ends, [...ends].sort((a, b) => b - a));
  });

  test("search pages past tasks and ids in any script", async (store) => {
    await store.write({
      entries: [
        entry("письмо-1", { task: "отправка", endedAt: T0 + 3000 }),
        entry("邮件-2", { task: "发送", endedAt: T0 + 2000 }),
        entry("mail-3", { endedAt: T0 + 1000 }),
      ],
    });
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await store.search({ limit: 1, cursor });
      seen.push(...page.summaries.map((summary) => summary.id));
      cursor = page.next ?? undefined;
    } while (cursor !== undefined && seen.length < 10);
    assert.deepEqual(seen, ["письмо-1", "邮件-2", "mail-3"]);
  });

  test("a text holding a NUL character is kept and found: never a failed write or read", async (store) => {
    // A job's error is whatever its handler threw: one NUL in it must not stop the recorder.
    const written = await store.write({
      entries: [
        entry("nul\0id", { outcome: "failed", error: "bad\0byte", errorShape: "bad\0byte" }),
        entry("odd-1", { task: "odd\0task", endedAt: T0 + 2000 }),
      ],
    });
    assert.deepEqual(written, { recorded: 2 });
    const ids = async (query: Parameters<HistoryStore["search"]>[0]) =>
      (await store.search(query)).summaries.map((summary) => summary.id);
    assert.deepEqual(await ids({ task: "odd\0task" }), ["odd-1"]);
    assert.equal((await ids({ errorText: "bad\0byte" })).length, 1);
    assert.equal((await ids({ idPrefix: "nul\0" })).length, 1);
    assert.match((await store.summary("send-email", "nul\0id"))!.attempts[0].error!, /^bad.byte$/);
    assert.equal(await store.summary("send-email", "no\0such"), null);
    const first = await store.search({ limit: 1 });
    assert.notEqual(first.next, null);
    assert.equal((await store.search({ cursor: first.next! })).summaries.length, 1);
    const scope = { task: "odd\0task", resolution: "minute" as const };
    assert.ok(Array.isArray(await store.rollups({ ...scope, from: T0, to: T0 + 3_600_000 })));
  });

  test("a job is found by its id alone: the tasks holding it, sorted, and no other id's", async (store) => {
    await store.write({
      entries: [
        entry("j1"),
        entry("j1", { task: "resize" }),
        entry("j10"),
        entry("nul\0id", { task: "отправка" }),
        entry("nul"),
      ],
    });
    assert.deepEqual(await store.tasksOfJob("j1"), ["resize", "send-email"]);
    assert.deepEqual(await store.tasksOfJob("j10"), ["send-email"]);
    assert.deepEqual(await store.tasksOfJob("j"), [], "the start of an id finds nothing");
    assert.deepEqual(await store.tasksOfJob("no-such-job"), []);
    assert.deepEqual(await store.tasksOfJob("nul\0id"), ["отправка"]);
    assert.deepEqual(await store.tasksOfJob("nul"), ["send-email"], "an id that starts another");
    // Written again, a job is still one task's once.
    await store.write({ entries: [entry("j10", { attempt: 2, endedAt: T0 + 5000 })] });
    assert.deepEqual(await store.tasksOfJob("j10"), ["send-email"]);
  });

  test("a search with a bad field is refused naming it", async (store) => {
    for (
      const [query, param] of [
        [{ limit: 0 }, "limit"],
        [{ limit: 10_000 }, "limit"],
        [{ errorText: "" }, "errorText"],
        [{ idPrefix: "x".repeat(1000) }, "idPrefix"],
        [{ cursor: "not-a-cursor" }, "cursor"],
        [{ from: 10, to: 5 }, "from"],
        [{ states: ["done"] as unknown as ["failed"] }, "states"],
        [{ version: 1.5 }, "version"],
        [{ to: Number.NaN }, "to"],
        [{ from: 1.5 }, "from"],
        // A cursor no store wrote: an end that is no whole ms, or a task that is no text.
        [{ cursor: btoa(JSON.stringify([1.5, "send-email", "j1"])) }, "cursor"],
        [{ cursor: btoa(JSON.stringify([1e300, "send-email", "j1"])) }, "cursor"],
      ] as const
    ) {
      await assert.rejects(
        () => store.search(query),
        (error) =>
          error instanceof BoardError && error.code === "INVALID_PARAM" && error.param === param,
      );
    }
    await assert.rejects(
      () => store.rollups({ resolution: "minute", from: T0, to: T0 + 90 * 86_400_000 }),
      (error) => error instanceof BoardError && error.param === "resolution",
    );
  });

  test("rollups per minute, hour and day: an hour is the merge of its minutes", async (store) => {
    const entries = [
      ...failingThrice("f1"),
      ...Array.from({ length: 30 }, (_, i) =>
        entry(`c${i}`, {
          version: i < 10 ? 1 : 2,
          createdAt: T0 + i * 60_000,
          startedAt: T0 + i * 60_000 + 500,
          endedAt: T0 + i * 60_000 + 500 + (i + 1) * 100,
        })),
    ];
    await store.write({ entries });
    const scope = { task: "send-email" };
    const minutes = await store.rollups({
      ...scope,
      resolution: "minute",
      from: T0,
      to: T0 + 3_600_000,
    });
    const [hour] = await store.rollups({
      ...scope,
      resolution: "hour",
      from: T0,
      to: T0 + 3_600_000,
    });
    const [day] = await store.rollups({ ...scope, resolution: "day", from: T0, to: T0 + 1 });
    assert.equal(minutes.length, 30);
    assert.equal(hour.at, T0);
    assert.equal(day.at, bucketOf(T0, "day"));
    for (const field of ["completed", "failed", "retried", "arrivals"] as const) {
      assert.equal(hour[field], sum(minutes, field), field);
      assert.equal(day[field], hour[field], field);
    }
    assert.deepEqual([hour.completed, hour.failed, hour.retried, hour.arrivals], [30, 1, 2, 31]);
    const mergedRun: Record<string, number> = {};
    for (const minute of minutes) {
      for (const [bin, count] of Object.entries(minute.run)) {
        mergedRun[bin] = (mergedRun[bin] ?? 0) + count;
      }
    }
    assert.deepEqual(hour.run, mergedRun);
    // 33 attempts ran: 30 for 100..3000 ms, three for 100 ms.
    const median = quantileOf(hour.run, 0.5)!;
    assert.ok(Math.abs(median - 1400) <= 1400 * 0.03, `median run ${median}`);
    assert.equal(hour.wait[binOf(500)], 30);
    const [v1] = await store.rollups({
      ...scope,
      version: 1,
      resolution: "hour",
      from: T0,
      to: T0 + 3_600_000,
    });
    assert.equal(v1.completed, 10);
    const [all] = await store.rollups({ resolution: "hour", from: T0, to: T0 + 3_600_000 });
    assert.equal(all.completed, 30);
    assert.deepEqual(
      await store.rollups({ task: "resize", resolution: "hour", from: T0, to: T0 + 3_600_000 }),
      [],
    );
  });

  test("backlog samples keep each bucket's largest, written twice or not", async (store) => {
    const samples = [
      { task: "send-email", at: T0, backlog: 40, oldestWaitingMs: 9000 },
      { task: "send-email", at: T0 + 60_000, backlog: 70, oldestWaitingMs: null },
      { task: "send-email", at: T0 + 120_000, backlog: 10, oldestWaitingMs: 2000 },
    ];
    await store.write({ entries: [], samples });
    await store.write({ entries: [], samples });
    const minutes = await store.rollups({
      task: "send-email",
      resolution: "minute",
      from: T0,
      to: T0 + 180_000,
    });
    assert.deepEqual(minutes.map((m) => [m.backlogMax, m.oldestWaitingMaxMs]), [[40, 9000], [
      70,
      null,
    ], [10, 2000]]);
    const [hour] = await store.rollups({
      task: "send-email",
      resolution: "hour",
      from: T0,
      to: T0 + 3_600_000,
    });
    assert.deepEqual([hour.backlogMax, hour.oldestWaitingMaxMs], [70, 9000]);
  });

  test(
    "a task over its cap keeps its newest summaries and the history says it was cut",
    async (store) => {
      const entries = Array.from(
        { length: 8 },
        (_, i) => entry(`job-${i}`, { endedAt: T0 + 2000 + i * 1000 }),
      );
      await store.write({ entries });
      await store.write({ entries: [entry("other", { task: "resize", endedAt: T0 + 2000 })] });
      await store.trim(T0 + 60_000);
      const holding = await store.holding();
      assert.equal(holding.summaries, 6);
      assert.deepEqual(holding.capped, { dropped: 3, newestDroppedAt: T0 + 4000 });
      const ids = (await store.search({ task: "send-email" })).summaries.map((s) => s.id);
      assert.deepEqual(ids, ["job-7", "job-6", "job-5", "job-4", "job-3"]);
      assert.equal(holding.oldestAt, T0 + 2000);
      assert.deepEqual(
        await store.cuts(),
        new Map([["send-email", { dropped: 3, newestDroppedAt: T0 + 4000 }]]),
        "a cut is its task's: resize lost nothing",
      );
      assert.deepEqual(await store.cuts("resize"), new Map());
      assert.deepEqual(await store.tasksOfJob("job-0"), [], "a capped job leaves the index by id");
      assert.deepEqual(await store.tasksOfJob("job-3"), ["send-email"]);
    },
    { maxPerTask: 5, maxSummaries: 100 },
  );

  test("history stops at its total cap and says so", async (store) => {
    const entries = Array.from(
      { length: 12 },
      (_, i) =>
        entry(`job-${i}`, { task: i % 2 ? "resize" : "send-email", endedAt: T0 + 2000 + i * 1000 }),
    );
    await store.write({ entries });
    await store.trim(T0 + 60_000);
    const holding = await store.holding();
    assert.equal(holding.summaries, 10);
    assert.deepEqual(holding.capped, { dropped: 2, newestDroppedAt: T0 + 3000 });
    assert.equal(await store.summary("send-email", "job-0"), null);
    assert.ok(await store.summary("send-email", "job-2"));
    assert.deepEqual(await store.tasksOfJob("job-0"), []);
    assert.deepEqual(await store.tasksOfJob("job-1"), []);
    assert.deepEqual(
      await store.cuts(),
      new Map([
        ["send-email", { dropped: 1, newestDroppedAt: T0 + 2000 }],
        ["resize", { dropped: 1, newestDroppedAt: T0 + 3000 }],
      ]),
      "the total cap's cut, told per task",
    );
    assert.deepEqual(
      await store.cuts("resize"),
      new Map([["resize", { dropped: 1, newestDroppedAt: T0 + 3000 }]]),
    );
    assert.deepEqual(await store.tasksOfJob("job-2"), ["send-email"]);
  }, { maxSummaries: 10 });

  test("summaries past the age limit go at a trim; younger ones stay", async (store) => {
    // Two days apart: PostgreSQL drops whole days, the others each summary.
    const old = T0 - 2 * 86_400_000;
    await store.write({
      entries: [
        entry("old", { createdAt: old, startedAt: old + 500, endedAt: old + 1000 }),
        entry("young"),
      ],
    });
    assert.deepEqual(await store.holding(), { summaries: 2, oldestAt: old + 1000, capped: null });
    assert.deepEqual(await store.trim(T0 + 86_400_000), { removed: 1 });
    assert.equal(await store.summary("send-email", "old"), null);
    assert.ok(await store.summary("send-email", "young"));
    assert.deepEqual(await store.tasksOfJob("old"), [], "an aged-out job leaves the index by id");
    assert.deepEqual(await store.tasksOfJob("young"), ["send-email"]);
    assert.deepEqual(await store.holding(), { summaries: 1, oldestAt: T0 + 1250, capped: null });
  }, { retentionMs: 86_400_000 });
}
