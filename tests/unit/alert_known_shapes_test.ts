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
