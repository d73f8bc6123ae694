import assert from "node:assert/strict";
import { KnownShapes } from "../../src/alerts/known_shapes.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

Deno.test("KnownShapes: what the first pass finds was there before, so it is not new", () => {
  const shapes = new KnownShapes();
  assert.deepEqual(shapes.observe("mail", ["timeout after <n> ms"], 1000), []);
  assert.deepEqual(shapes.observe("pay", ["card declined"], 1000), [], "every task of the pass");
  assert.deepEqual(shapes.observe("mail", ["timeout after <n> ms", "quota"], 2000), ["quota"]);
});

Deno.test("KnownShapes: a shape stays new for an hour, then is known", () => {
  const shapes = new KnownShapes();
  shapes.observe("mail", [], 0);
  assert.deepEqual(shapes.observe("mail", ["quota"], 10), ["quota"]);
  assert.deepEqual(shapes.observe("mail", ["quota"], 10 + HOUR - 1), ["quota"]);
  assert.deepEqual(shapes.observe("mail", ["quota"], 10 + HOUR), []);
});

Deno.test("KnownShapes: a shape not seen for 24 h is new again; shapes are per task", () => {
  const shapes = new KnownShapes();
  shapes.observe("mail", ["quota"], 0);
  assert.deepEqual(shapes.observe("pay", ["quota"], 1), ["quota"], "another task's shape");
  assert.deepEqual(shapes.observe("mail", ["quota"], DAY), [], "seen 24 h ago, to the ms");
  assert.deepEqual(shapes.observe("mail", ["quota"], 2 * DAY + 1), ["quota"]);
});

Deno.test("KnownShapes keeps at most maxEntries, forgetting the least recently seen", () => {
  const shapes = new KnownShapes(3);
  shapes.observe("t", ["a", "b", "c"], 0);
  shapes.observe("t", ["a"], 1); // b is now the least recently seen
  shapes.observe("t", ["d"], 2);
  assert.equal(shapes.size, 3);
  assert.deepEqual(shapes.observe("t", ["a", "c", "d"], 3), ["d"], "a, c and d are kept");
  assert.deepEqual(shapes.observe("t", ["b"], 4), ["b"], "b was forgotten");
  assert.equal(shapes.size, 3);
});

Deno.test("KnownShapes.from carries on from a leader's shapes: what they lack is new, their baseline stays known", () => {
  const shapes = KnownShapes.from({
    baselineAt: 0,
    shapes: [
      { task: "mail", shape: "timeout", first: null, last: 1000 },
      { task: "mail", shape: "quota", first: 500, last: 1000 },
      { task: "mail", shape: "gone a day", first: null, last: 2000 - DAY - 1 },
    ],
  }, 2000);
  assert.equal(shapes.size, 2, "a shape unseen for 24 h is not carried");
  assert.deepEqual(
    shapes.observe("mail", ["timeout", "quota", "disk full", "gone a day"], 2000),
    ["quota", "disk full", "gone a day"],
    "quota is still in its hour; the others appeared since the last leader looked",
  );
});

Deno.test("KnownShapes.takeChange gives what each pass changed, bounded, and the whole set after a lost write", () => {
  const shapes = new KnownShapes(2);
  assert.equal(shapes.takeChange(), null, "no pass ran: nothing to write");
  shapes.observe("t", ["a", "b"], 10);
  assert.deepEqual(shapes.takeChange(), {
    baselineAt: 10,
    whole: false,
    seen: [
      { task: "t", shape: "a", first: null, last: 10 },
      { task: "t", shape: "b", first: null, last: 10 },
    ],
    forgotten: [],
  });
  shapes.observe("t", ["c"], 20); // a, the least recently seen, goes
  assert.deepEqual(shapes.takeChange(), {
    baselineAt: 10,
    whole: false,
    seen: [{ task: "t", shape: "c", first: 20, last: 20 }],
    forgotten: [{ task: "t", shape: "a" }],
  });
  shapes.changeLost();
  const whole = shapes.takeChange()!;
  assert.equal(whole.whole, true);
  assert.deepEqual(whole.seen.map((known) => known.shape), ["b", "c"], "every shape kept");
  assert.equal(shapes.takeChange()!.whole, false, "once");
});
