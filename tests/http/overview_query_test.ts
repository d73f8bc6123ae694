/**
 * `GET /overview` with a query, on the memory source seeded with the
 * taskora fixture plus two `billing.` tasks whose jobs wait with nothing
 * running (so critical): a filter by name, health or prefix, a sort, a page,
 * the health summary and the groups; the counts and the health summary stay
 * over every task; without a query the answer is every task by name.
 */

import assert from "node:assert/strict";
import { createBoard } from "../helpers/checked_board.ts";
import { expectError } from "../helpers/expect_error.ts";
import { FIXTURE_TASKS, readFixture } from "../helpers/fixture.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import type { OverviewResponse } from "../../src/contract/overview.ts";

const ALL = [...FIXTURE_TASKS, "billing.charge", "billing.refund"].sort();

async function withBoard(body: (get: (query: string) => Promise<Response>) => Promise<void>) {
  let clock = Date.now();
  // Dumped now, not when the file loaded: a batch of test files may run this one minutes later.
  const source = createMemorySource({ seed: readFixture(clock), now: () => clock });
  // The refund waits since a minute before the charge's three jobs.
  source.store.enqueue("billing.refund", { id: "r1", data: {} });
  clock += 60_000;
  for (const id of ["c1", "c2", "c3"]) source.store.enqueue("billing.charge", { id, data: {} });
  const board = createBoard(source, {});
  try {
    await body((query) =>
      Promise.resolve(board.fetch(new Request(`http://x/board/api/overview${query}`)))
    );
  } finally {
    await source.close();
  }
}

const json = async (response: Response): Promise<OverviewResponse> => {
  assert.equal(response.status, 200);
  return await response.json();
};
const names = (body: OverviewResponse) => body.tasks.map((task) => task.name);

Deno.test("GET /overview without a query lists every task by name, all of them matched", () =>
  withBoard(async (get) => {
    const body = await json(await get(""));
    assert.deepEqual(names(body), ALL);
    assert.equal(body.matched, ALL.length);
    assert.equal(body.groups, undefined);
    assert.deepEqual(body.healthCounts, { critical: 2, warning: 3, healthy: 7, idle: 1 });
  }));

Deno.test("GET /overview?sort=health puts critical tasks first, then warning; totals stay global", () =>
  withBoard(async (get) => {
    const all = await json(await get(""));
    const body = await json(await get("?sort=health&limit=3"));
    assert.deepEqual(names(body), ["billing.charge", "billing.refund", "send-email"]);
    assert.equal(body.matched, ALL.length);
    assert.deepEqual(body.totals, all.totals);
    assert.deepEqual(body.healthCounts, all.healthCounts);
  }));

Deno.test("GET /overview sorts by a state's count, by the oldest waiting job, or by name", () =>
  withBoard(async (get) => {
    assert.deepEqual(names(await json(await get("?sort=waiting&limit=2"))), [
      "billing.charge",
      "billing.refund",
    ]);
    assert.deepEqual(names(await json(await get("?sort=failed&limit=1"))), ["send-email"]);
    assert.deepEqual(names(await json(await get("?sort=oldest&limit=2"))), [
      "billing.refund",
      "billing.charge",
    ]);
    assert.deepEqual(names(await json(await get("?sort=name"))), ALL);
  }));

Deno.test("GET /overview filters by name (any case), health and prefix; the summary stays global", () =>
  withBoard(async (get) => {
    const bill = await json(await get("?q=BILL"));
    assert.deepEqual(names(bill), ["billing.charge", "billing.refund"]);
    assert.equal(bill.matched, 2);
    assert.deepEqual(bill.healthCounts, { critical: 2, warning: 3, healthy: 7, idle: 1 });
    // slow and transcode: the dump's active jobs hold no lock.
    assert.deepEqual(names(await json(await get("?health=warning"))), [
      "send-email",
      "slow",
      "transcode",
    ]);
    assert.deepEqual(names(await json(await get("?prefix=billing."))), [
      "billing.charge",
      "billing.refund",
    ]);
    assert.deepEqual(names(await json(await get("?q=re&health=critical"))), ["billing.refund"]);
  }));

Deno.test("GET /overview pages the matching tasks with limit and offset", () =>
  withBoard(async (get) => {
    const second = await json(await get("?limit=5&offset=5"));
    assert.deepEqual(names(second), ALL.slice(5, 10));
    assert.equal(second.matched, ALL.length);
    const last = await json(await get("?limit=5&offset=10"));
    assert.deepEqual(names(last), ALL.slice(10));
    const counts = await json(await get("?limit=0"));
    assert.deepEqual(counts.tasks, []);
    assert.equal(counts.matched, ALL.length);
  }));

Deno.test("GET /overview?group=prefix adds the groups of the matching tasks with their totals", () =>
  withBoard(async (get) => {
    const body = await json(await get("?group=prefix&q=i&limit=0"));
    const billing = body.groups!.find((group) => group.prefix === "billing.")!;
    assert.equal(billing.tasks, 2);
    assert.equal(billing.stats.waiting, 4);
    assert.deepEqual(billing.health, { critical: 2, warning: 0, healthy: 0, idle: 0 });
    // A name without a separator is a group of its own.
    const others = ALL.filter((name) => !name.startsWith("billing.") && name.includes("i"));
    assert.deepEqual(body.groups!.map((group) => group.prefix), ["billing.", ...others]);
    assert.deepEqual(body.groups!.find((group) => group.prefix === "send-email")!.health, {
      critical: 0,
      warning: 1,
      healthy: 0,
      idle: 0,
    });
  }));

Deno.test("GET /overview refuses a bad query naming the parameter", () =>
  withBoard(async (get) => {
    await expectError(await get("?sort=size"), 400, "INVALID_PARAM", /sort.*health/);
    await expectError(await get("?health=sick"), 400, "INVALID_PARAM", /health.*critical/);
    await expectError(await get("?limit=1001"), 400, "INVALID_PARAM", /limit.*at most 1000/);
    await expectError(await get("?offset=-1"), 400, "INVALID_PARAM", /offset/);
    await expectError(await get("?group=name"), 400, "INVALID_PARAM", /group.*prefix/);
    await expectError(await get(`?q=${"x".repeat(257)}`), 400, "INVALID_PARAM", /q.*256/);
  }));
