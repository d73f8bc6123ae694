/**
 * The TaskSource contract for finding jobs (`searchJobs`): a time range, an
 * id prefix and a payload condition give the same jobs, in list order, on
 * every source, whichever way the scan is cut into slices and cursors.
 */

import assert from "node:assert/strict";
import { matchesOf, matchingCandidates } from "../../src/search/job_match.ts";
import type { BulkAction } from "../../src/contract/bulk.ts";
import type { JobFilter } from "../../src/contract/job_filter.ts";
import { createPresenter } from "../../src/contract/present.ts";
import { positionAfterRemoving } from "../../src/source/search_position.ts";
import type { JobState, SearchPosition, TaskSource } from "../../src/source/types.ts";
import { type Fixture as KeyspaceDump, readFixture } from "../helpers/fixture.ts";
import type { Seed } from "./source_contract.ts";

const T = 1_800_000_000_000;
const BASE = "taskora:{finder}";
/** Completed jobs: more than two slices, finishing seven to a millisecond so a slice ends inside a tie. */
const COMPLETED = 2_503;
const completedId = (i: number) => `done-${String(i).padStart(5, "0")}`;
const finishedAt = (i: number) => T + Math.floor(i / 7);

const NO_FILTER: JobFilter = { from: null, to: null, idPrefix: null, payload: null, masked: [] };

function hash(state: string, fields: Record<string, string>) {
  return {
    type: "hash" as const,
    pttl: -1,
    value: { state, _v: "1", attempt: "1", maxAttempts: "3", ts: String(T - 1000), ...fields },
  };
}

/** A task `finder` with completed, failed, waiting, delayed and retrying jobs to find. */
export function withFinder(dump: KeyspaceDump): KeyspaceDump {
  const keys = { ...dump.keys };
  const completed: { value: string; score: number }[] = [];
  for (let i = 0; i < COMPLETED; i++) {
    const id = completedId(i);
    completed.push({ value: id, score: finishedAt(i) });
    keys[`${BASE}:${id}`] = hash("completed", {
      data: JSON.stringify({
        user: { id: i % 100, name: `User ${i}` },
        tags: ["a", i % 2 ? "odd" : "even"],
      }),
      result: JSON.stringify(i === 1234 ? { note: 'said "hi"\nthen left' } : { ok: true }),
      finishedOn: String(finishedAt(i)),
    });
  }
  keys[`${BASE}:completed`] = { type: "zset", pttl: -1, value: completed };
  const failed = [
    { id: "fail-1", error: "Timeout: upstream took 30s", at: T + 10 },
    { id: "fail-2", error: "connection REFUSED by db", at: T + 20 },
    {
      id: "fail-3",
      error: JSON.stringify({ message: "bad card", password: "hunter2" }),
      at: T + 30,
    },
  ];
  for (const { id, error, at } of failed) {
    keys[`${BASE}:${id}`] = hash("failed", { error, data: "{}", finishedOn: String(at) });
  }
  keys[`${BASE}:fail-2:logs`] = {
    type: "list",
    pttl: -1,
    value: [
      JSON.stringify({ level: "info", message: "connecting", timestamp: T }),
      JSON.stringify({
        level: "error",
        message: "gave up",
        meta: { host: "db-7" },
        timestamp: T + 1,
      }),
    ],
  };
  keys[`${BASE}:failed`] = {
    type: "zset",
    pttl: -1,
    value: failed.map(({ id, at }) => ({ value: id, score: at })),
  };
  // The wait list's tail is the next to run: w-0 first.
  const waiting = ["w-0", "w-1", "w-2", "x-3"];
  keys[`${BASE}:wait`] = { type: "list", pttl: -1, value: [...waiting].reverse() };
  waiting.forEach((id, i) => {
    keys[`${BASE}:${id}`] = hash("waiting", {
      ts: String(T + i * 1000),
      data: JSON.stringify({ n: i }),
    });
  });
  keys[`${BASE}:delayed`] = {
    type: "zset",
    pttl: -1,
    value: [{ value: "d-1", score: T + 5000 }, { value: "r-1", score: T + 6000 }],
  };
  keys[`${BASE}:d-1`] = hash("delayed", { data: '{"kind":"later"}' });
  keys[`${BASE}:r-1`] = hash("retrying", { data: '{"kind":"later"}', error: "flaky" });
  return { ...dump, keys };
}

const present = createPresenter({ redact: ["password"], formatters: {} });

/**
 * Every match of a search, in order, walked slice by slice as the route
 * does, asking for at most `want` candidates a slice.
 */
async function findAll(
  source: TaskSource,
  state: JobState,
  filter: JobFilter,
  want = 50,
): Promise<{ ids: string[]; total: number; scanned: number }> {
  const ids: string[] = [];
  let position: SearchPosition | null = null;
  let total = 0;
  let scanned = 0;
  do {
    const slice = await source.searchJobs!("finder", state, filter, position, want);
    total = slice.total;
    scanned += slice.scanned;
    ids.push(...matchesOf(filter, slice, present).map((job) => job.id));
    position = slice.next;
  } while (position !== null);
  return { ids, total, scanned };
}

/**
 * Every match of a search found one page of one match at a time, as the
 * route pages it: each page stops just past its match (the candidate's
 * `after`), whatever else its slice looked at.
 */
async function findOneByOne(
  source: TaskSource,
  state: JobState,
  filter: JobFilter,
): Promise<string[]> {
  const ids: string[] = [];
  let position: SearchPosition | null = null;
  do {
    const slice = await source.searchJobs!("finder", state, filter, position, 1);
    const [first] = matchingCandidates(filter, slice, present);
    const sliceEnd: number = (position?.scanned ?? 0) + slice.scanned;
    if (first) ids.push(first.job.id);
    position = first && first.after.scanned < sliceEnd ? first.after : slice.next;
  } while (position !== null);
  return ids;
}

/**
 * Walks a search as a bulk operation on a filter does: acts on each slice's
 * matches, then moves the next slice's position back by what left the
 * state. Resolves to how many jobs it acted on.
 */
async function actOnEveryMatch(
  source: TaskSource,
  state: JobState,
  filter: JobFilter,
  action: BulkAction,
  want: number,
): Promise<number> {
  let acted = 0;
  let position: SearchPosition | null = null;
  do {
    const slice = await source.searchJobs!("finder", state, filter, position, want);
    const ids = matchesOf(filter, slice, present).map((job) => job.id);
    const step = ids.length > 0
      ? await source.bulkStep!("finder", action, { ids })
      : { done: [], skipped: [], signalled: 0 };
    acted += step.done.length;
    position = slice.next &&
      positionAfterRemoving(state, slice.next, step.done.length + step.skipped.length);
  } while (position !== null);
  return acted;
}

/** Registers the search contract for one source. */
export function searchContract(name: string, seed: Seed): void {
  const test = (title: string, fn: (source: TaskSource) => Promise<void>) =>
    Deno.test(`${name}: ${title}`, async () => {
      const harness = await seed(withFinder(readFixture()));
      try {
        await fn(harness.source);
      } finally {
        await harness.close();
      }
    });

  test("a search without a filter lists every finished job newest first, none twice", async (source) => {
    for (const want of [1000, 7, 3]) {
      const { ids, total, scanned } = await findAll(source, "completed", NO_FILTER, want);
      assert.equal(total, COMPLETED);
      assert.equal(scanned, COMPLETED);
      assert.equal(ids.length, COMPLETED, `want ${want}`);
      assert.equal(new Set(ids).size, COMPLETED);
      const page = await source.listJobs("finder", "completed", 0, 20);
      assert.deepEqual(ids.slice(0, 20), page.jobs.map((j) => j.id));
    }
  });

  test("a time range on a finished state is on the finish time, bounds included", async (source) => {
    const from = finishedAt(700);
    const to = finishedAt(1400);
    const expected = [];
    for (let i = COMPLETED - 1; i >= 0; i--) {
      if (finishedAt(i) >= from && finishedAt(i) <= to) expected.push(completedId(i));
    }
    const found = await findAll(source, "completed", { ...NO_FILTER, from, to }, 11);
    assert.equal(found.total, expected.length);
    assert.equal(found.scanned, expected.length, "only the range is scanned");
    assert.deepEqual(new Set(found.ids), new Set(expected));
    assert.equal(found.ids.length, expected.length);
    assert.deepEqual(
      (await findAll(source, "completed", { ...NO_FILTER, from: to + 1e6 })).ids,
      [],
    );
  });

  test("a time range on waiting jobs is on their created time, in run order", async (source) => {
    const found = await findAll(source, "waiting", { ...NO_FILTER, from: T + 1000, to: T + 2000 });
    assert.deepEqual(found.ids, ["w-1", "w-2"]);
    assert.equal(found.total, 4);
  });

  test("an id prefix keeps the jobs whose id starts with it", async (source) => {
    assert.deepEqual((await findAll(source, "waiting", { ...NO_FILTER, idPrefix: "w-" })).ids, [
      "w-0",
      "w-1",
      "w-2",
    ]);
    assert.deepEqual(
      (await findAll(source, "completed", { ...NO_FILTER, idPrefix: "done-0250" })).ids,
      Array.from({ length: 4 }, (_, i) => completedId(2503 - 1 - i)).filter((id) =>
        id.startsWith("done-0250")
      ),
    );
  });

  test("a key path and value match numbers and strings at that path", async (source) => {
    const byNumber = await findAll(source, "completed", {
      ...NO_FILTER,
      payload: { field: "data", path: ["user", "id"], value: "42" },
    });
    const expected = [];
    for (let i = COMPLETED - 1; i >= 0; i--) if (i % 100 === 42) expected.push(completedId(i));
    assert.deepEqual(byNumber.ids, expected);
    const byName = await findAll(source, "completed", {
      ...NO_FILTER,
      payload: { field: "data", path: ["user", "name"], value: "User 7" },
    });
    assert.deepEqual(byName.ids, [completedId(7)]);
    const byIndex = await findAll(source, "completed", {
      ...NO_FILTER,
      idPrefix: "done-0000",
      payload: { field: "data", path: ["tags", "1"], value: "odd" },
    });
    assert.deepEqual(byIndex.ids, [
      "done-00009",
      "done-00007",
      "done-00005",
      "done-00003",
      "done-00001",
    ]);
  });

  test("a key path steps into an array by index only: a key such as length names nothing there", async (source) => {
    // Every job's tags is ["a", "odd" | "even"]: were `length` the array's, all would match 2.
    for (const value of ["2", "1"]) {
      const byLength = await findAll(source, "completed", {
        ...NO_FILTER,
        payload: { field: "data", path: ["tags", "length"], value },
      });
      assert.deepEqual(byLength.ids, [], `tags.length=${value}`);
    }
    const throughArray = await findAll(source, "completed", {
      ...NO_FILTER,
      idPrefix: "done-0000",
      payload: { field: "data", path: ["tags", "0", "length"], value: "1" },
    });
    assert.deepEqual(throughArray.ids, [], "a string has no keys either");
  });

  test("a substring matches the value's text, ignoring case, escapes included", async (source) => {
    const quoted = await findAll(source, "completed", {
      ...NO_FILTER,
      payload: { field: "result", contains: 'SAID "hi"\nthen' },
    });
    assert.deepEqual(quoted.ids, [completedId(1234)]);
    const error = await findAll(source, "failed", {
      ...NO_FILTER,
      payload: { field: "error", contains: "refused" },
    });
    assert.deepEqual(error.ids, ["fail-2"]);
    const logs = await findAll(source, "failed", {
      ...NO_FILTER,
      payload: { field: "logs", contains: "db-7" },
    });
    assert.deepEqual(logs.ids, ["fail-2"]);
  });

  test("a redacted value is never matched by what it hides", async (source) => {
    const hidden = await findAll(source, "failed", {
      ...NO_FILTER,
      payload: { field: "error", contains: "hunter2" },
    });
    assert.deepEqual(hidden.ids, []);
    const shown = await findAll(source, "failed", {
      ...NO_FILTER,
      payload: { field: "error", contains: "bad card" },
    });
    assert.deepEqual(shown.ids, ["fail-3"]);
  });

  test("a right guess of a redacted value costs no more than a wrong one: as many candidates", async (source) => {
    const candidates = async (contains: string) => {
      const filter: JobFilter = {
        ...NO_FILTER,
        masked: ["Password"],
        payload: { field: "error", contains },
      };
      const slice = await source.searchJobs!("finder", "failed", filter, null, 50);
      return slice.candidates.map((c) => c.job.id);
    };
    // The prefilter must not see what redaction hides: a job holding a masked key is a
    // candidate whatever the guess, so the work done tells nothing of the secret.
    assert.deepEqual(await candidates("hunter2"), await candidates("hunter3"));
    assert.deepEqual(await candidates("hunter"), await candidates("zzzzzz"));
  });

  test("a page that stops just past a match continues from there, none missed or repeated", async (source) => {
    // Ties of seven on the finish time: pages end inside them.
    const odd: JobFilter = {
      ...NO_FILTER,
      idPrefix: "done-000",
      payload: { field: "data", path: ["tags", "1"], value: "odd" },
    };
    const all = (await findAll(source, "completed", odd)).ids;
    assert.equal(all.length, 50);
    assert.deepEqual(await findOneByOne(source, "completed", odd), all);
    const queued: JobFilter = { ...NO_FILTER, payload: { field: "data", contains: '"n"' } };
    assert.deepEqual(await findOneByOne(source, "waiting", queued), ["w-0", "w-1", "w-2", "x-3"]);
  });

  test("delayed and retrying jobs are told apart by their hash", async (source) => {
    const condition = { ...NO_FILTER, payload: { field: "data" as const, contains: "later" } };
    assert.deepEqual((await findAll(source, "delayed", condition)).ids, ["d-1"]);
    assert.deepEqual((await findAll(source, "retrying", condition)).ids, ["r-1"]);
  });

  test("a walk that acts on each slice's matches, moving its position back, misses none", async (source) => {
    const odd: JobFilter = {
      ...NO_FILTER,
      payload: { field: "data", path: ["tags", "1"], value: "odd" },
    };
    // Slices of 3 matches end inside the seven-job ties of the finish time.
    const deleted = await actOnEveryMatch(source, "completed", odd, "delete", 3);
    assert.equal(deleted, Math.floor(COMPLETED / 2));
    assert.deepEqual((await findAll(source, "completed", odd)).ids, []);
    assert.equal((await findAll(source, "completed", NO_FILTER)).total, COMPLETED - deleted);

    const firstThree: JobFilter = { ...NO_FILTER, idPrefix: "w-" };
    assert.equal(await actOnEveryMatch(source, "waiting", firstThree, "cancel", 1), 3);
    assert.deepEqual((await findAll(source, "waiting", NO_FILTER)).ids, ["x-3"]);
  });

  test("an unknown task is TASK_NOT_FOUND", async (source) => {
    await assert.rejects(
      source.searchJobs!("no-such-task", "waiting", NO_FILTER, null, 10),
      { code: "TASK_NOT_FOUND" },
    );
  });
}
