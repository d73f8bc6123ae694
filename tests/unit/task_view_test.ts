/**
 * The task list's view in the URL (`ui/pages/overview/task_view.ts`) and a
 * page of tasks kept current by the stats frames (`mergePage`).
 */

import assert from "node:assert/strict";
import { pageQuery, searchOf, viewFromSearch } from "../../ui/pages/overview/task_view.ts";
import { mergePage } from "../../ui/pages/overview/use_overview.ts";
import type { Overview } from "../../ui/lib/types.ts";
import type { StatsUpdate } from "../../ui/lib/live.ts";
import type { QueueStats } from "../../src/contract/states.ts";
import { NO_JOBS } from "../helpers/fixture.ts";

Deno.test("viewFromSearch() reads the URL's view; searchOf() writes it back, defaults left out", () => {
  assert.deepEqual(viewFromSearch(""), {
    q: "",
    sort: "health",
    health: null,
    group: false,
    page: 1,
  });
  const view = viewFromSearch("?q=bill&sort=failed&health=critical&group=prefix&page=3");
  assert.deepEqual(view, { q: "bill", sort: "failed", health: "critical", group: true, page: 3 });
  assert.equal(searchOf(view), "?q=bill&sort=failed&health=critical&group=prefix&page=3");
  assert.equal(searchOf(viewFromSearch("")), "");
});

Deno.test("viewFromSearch() takes a counter's ?state= as the sort and ignores what it cannot read", () => {
  assert.equal(viewFromSearch("?state=waiting").sort, "waiting");
  assert.deepEqual(viewFromSearch("?sort=size&health=sick&page=-2&group=name"), {
    q: "",
    sort: "health",
    health: null,
    group: false,
    page: 1,
  });
});

Deno.test("pageQuery() asks GET /overview for the view's page", () => {
  assert.deepEqual(pageQuery(viewFromSearch("?q=a&page=3&sort=name"), 3, "billing."), {
    q: "a",
    health: undefined,
    prefix: "billing.",
    sort: "name",
    limit: 50,
    offset: 100,
  });
});

const counts = (waiting: number): QueueStats => ({ ...NO_JOBS, waiting });
const totals = (waiting: number) => {
  const { retrying: _, ...rest } = counts(waiting);
  return rest;
};

function row(name: string, waiting: number): Overview["tasks"][number] {
  return {
    name,
    stats: counts(waiting),
    retryingAsOf: null,
    health: { status: "critical", reason: "r", failureRate: null, noProgress: false },
    latency: { oldestWaiting: null, mostOverdue: null },
    rate: { from: 0, bucketMs: 60_000, completed: [], failed: [] },
  };
}

const page: Overview = {
  tasks: [row("b", 5), row("a", 1)],
  matched: 3,
  totals: totals(6),
  healthCounts: { critical: 2, warning: 0, healthy: 1, idle: 0 },
  asOf: 1,
  redis: { version: "7", usedMemory: "1M", uptime: 1, connected: true },
  uptime: 1,
};

Deno.test("mergePage() keeps the page's rows and order, with the frame's counts and totals", () => {
  const frame: StatsUpdate = {
    tasks: [
      { name: "a", stats: counts(2), retryingAsOf: 7 },
      { name: "b", stats: counts(9), retryingAsOf: null },
      { name: "c", stats: counts(4), retryingAsOf: null },
    ],
    totals: totals(15),
    connected: true,
    at: 1,
  };
  const merged = mergePage(page, frame);
  assert.deepEqual(merged.tasks.map((task) => [task.name, task.stats.waiting]), [["b", 9], [
    "a",
    2,
  ]]);
  assert.equal(merged.tasks[1].retryingAsOf, 7);
  assert.deepEqual(merged.totals, totals(15));
  assert.equal(merged.tasks[0].health, page.tasks[0].health);
  assert.equal(mergePage(page, null), page);
  // A row whose counts the frame does not change stays the answer's own (it is not drawn again).
  const same = mergePage(page, {
    ...frame,
    tasks: [{ name: "a", stats: counts(1), retryingAsOf: null }],
  });
  assert.equal(same.tasks[1], page.tasks[1]);
  assert.equal(mergePage(page, { ...frame, tasks: [], connected: false }), page);
});
