import assert from "node:assert/strict";
import { RetryingSplit } from "../../src/source/redis/retrying_split.ts";
import type { TaskEvent } from "../../src/source/types.ts";

const event = (kind: string, jobId: string, task = "t"): TaskEvent => ({
  task,
  event: kind,
  jobId,
  fields: {},
  at: 0,
});

Deno.test("RetryingSplit counts retrying events and drops a job at its next lifecycle event", () => {
  const split = new RetryingSplit();
  split.observe(event("retrying", "a"));
  split.observe(event("retrying", "b"));
  split.observe(event("progress", "a"));
  assert.equal(split.read("t").retrying, 2, "progress says nothing");
  for (const kind of ["active", "promoted", "cancelled"]) {
    split.observe(event("retrying", "c"));
    split.observe(event(kind, "c"));
  }
  split.observe(event("active", "a"));
  assert.deepEqual(split.read("t"), { retrying: 1, asOf: null }, "never reconciled: no asOf");
});

Deno.test("RetryingSplit: a reconcile replaces the set, the events seen while it ran win", () => {
  let now = 1000;
  const split = new RetryingSplit(100, () => now);
  split.observe(event("retrying", "stale")); // gone meanwhile, no event seen
  split.begin("t");
  now = 2000;
  split.observe(event("active", "x")); // read as retrying by the walk, then taken
  split.observe(event("retrying", "y")); // began retrying after the walk passed it
  split.finish("t", ["x", "z"]);
  assert.deepEqual(split.read("t"), { retrying: 2, asOf: 1000 }, "z and y; as of the pass start");
  split.following(true);
  assert.equal(split.read("t").asOf, 1000, "followed only since after the pass");
  split.begin("t");
  split.finish("t", ["y", "z"]);
  now = 5000;
  assert.deepEqual(
    split.read("t"),
    { retrying: 2, asOf: 5000 },
    "followed since the pass: exact now",
  );
  split.following(false);
  assert.equal(split.read("t").asOf, 2000);
});

Deno.test("RetryingSplit keeps at most maxIds ids; past them the figure is an estimate", () => {
  const split = new RetryingSplit(3);
  split.following(true);
  split.begin("t");
  split.finish("t", []);
  for (const id of ["a", "b", "c", "d", "e"]) split.observe(event("retrying", id));
  assert.equal(split.kept, 3);
  assert.equal(split.read("t").retrying, 5, "counted, not kept");
  assert.ok(split.estimated("t"));
  assert.equal(split.live("t"), false, "an estimate is never exact now");
  split.begin("t");
  split.finish("t", ["a"]);
  assert.deepEqual([split.kept, split.read("t").retrying, split.estimated("t")], [1, 1, false]);
});
