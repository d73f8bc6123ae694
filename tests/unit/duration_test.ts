import assert from "node:assert/strict";
import { parseDuration } from "../../src/duration.ts";

Deno.test("parseDuration() reads a number with a unit, ms when none", () => {
  assert.equal(parseDuration("250ms"), 250);
  assert.equal(parseDuration("30s"), 30_000);
  assert.equal(parseDuration("5m"), 300_000);
  assert.equal(parseDuration("2h"), 7_200_000);
  assert.equal(parseDuration("1d"), 86_400_000);
  assert.equal(parseDuration("1500"), 1500);
  assert.equal(parseDuration(" 5m "), 300_000, "surrounding space is ignored");
});

Deno.test("parseDuration() takes a whole, non-negative number of ms", () => {
  assert.equal(parseDuration(0), 0);
  assert.equal(parseDuration(1500), 1500);
  assert.equal(parseDuration(-1), null);
  assert.equal(parseDuration(1.5), null);
  assert.equal(parseDuration(Number.MAX_SAFE_INTEGER + 2), null);
});

Deno.test("parseDuration() refuses anything else with null", () => {
  for (
    const value of ["", "soon", "5 m", "5M", "-5m", "1.5h", "5w", "m", null, undefined, {}, []]
  ) {
    assert.equal(parseDuration(value), null, JSON.stringify(value));
  }
  assert.equal(parseDuration("9".repeat(20) + "d"), null, "beyond safe integers");
});
