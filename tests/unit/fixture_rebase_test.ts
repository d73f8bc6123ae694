/**
 * The fixture is read as if taskora had just written it, so that no test
 * depends on the day the dump was taken or the day it runs.
 */

import assert from "node:assert/strict";
import {
  FIXTURE_METRIC_MINUTE,
  FIXTURE_NOW,
  FIXTURE_SHIFT,
  fixtureTime,
  loadFixture,
  readFixture,
} from "../helpers/fixture.ts";

const RAW = Deno.readTextFileSync(
  new URL("../fixtures/taskora-wire6-sample.json", import.meta.url),
);
/** Epoch milliseconds of the dump's era (2026), wherever they appear: names, values, scores, ids, JSON. */
const EPOCH_MS = /17\d{11}/g;

Deno.test("readFixture() moves the dump so that it was taken in the minute before FIXTURE_NOW", () => {
  const { dumpedAt } = readFixture();
  // Against the helper's moment, not Date.now(): the file may run minutes after its batch loaded it.
  const age = FIXTURE_NOW - dumpedAt;
  assert.ok(age >= 0 && age < 60_000, `dumped ${age} ms before FIXTURE_NOW`);
  assert.ok(FIXTURE_NOW <= Date.now());
  assert.equal(FIXTURE_SHIFT % 60_000, 0, "whole minutes: counters stay on minute boundaries");
  assert.equal(FIXTURE_METRIC_MINUTE % 60_000, 0);
});

Deno.test("readFixture() moves every time of the dump by the same shift, and nothing else", () => {
  const raw = [...RAW.matchAll(EPOCH_MS)].map(([digits]) => Number(digits));
  const rebased = [...JSON.stringify(readFixture()).matchAll(EPOCH_MS)].map(([d]) => Number(d));
  assert.ok(raw.length > 300, `${raw.length} times in the dump`);
  // Same order: key names, hash fields, scores, stream ids, log and schedule JSON, dumpedAt.
  assert.deepEqual(rebased, raw.map(fixtureTime));
  const rawValues = JSON.stringify(JSON.parse(RAW)).replace(EPOCH_MS, "T");
  const rebasedValues = JSON.stringify(readFixture()).replace(EPOCH_MS, "T");
  assert.equal(rebasedValues, rawValues, "only the times differ");
});

Deno.test("loadFixture({ at }) writes the dump as taken at `at`, its counters in metricsAt's minute", async () => {
  const at = FIXTURE_NOW + 10 * 60_000; // as a batch runs a test minutes after loading its file
  const sent: string[][] = [];
  const recorder = { sendCommand: (args: string[]) => Promise.resolve(sent.push(args)) };
  const names = await loadFixture(recorder, { at, metricsAt: at });
  const minute = Math.floor(at / 60_000) * 60_000;
  assert.ok(names.some((name) => name.endsWith(`:metrics:completed:${minute}`)), "counters moved");
  // A job's times are those of the dump as of `at`.
  const [name, key] = Object.entries(readFixture(at).keys).find(([, key]) =>
    key.type === "hash" && "ts" in key.value
  )!;
  const written = sent.filter(([command, target]) => command === "HSET" && target === name);
  assert.deepEqual(written.flatMap(([, , ...fields]) => fields), Object.entries(key.value).flat());
});

Deno.test("loadFixture({ metricsAt }) moves no failure past metricsAt, whatever second of its minute", async () => {
  for (let second = 0; second < 60; second += 5) {
    const at = Math.floor(FIXTURE_NOW / 60_000) * 60_000 + 10 * 60_000 + second * 1000;
    const sent: string[][] = [];
    const recorder = { sendCommand: (args: string[]) => Promise.resolve(sent.push(args)) };
    await loadFixture(recorder, { at, metricsAt: at });
    const scores = sent.filter(([command, key]) => command === "ZADD" && key.endsWith(":failed"))
      .flatMap(([, , ...members]) => members.filter((_, i) => i % 2 === 0).map(Number));
    assert.ok(scores.length >= 5, `${scores.length} failures written`);
    // A failure in the future reads as one a worker made after an operation started now.
    const late = scores.filter((score) => score > at);
    assert.deepEqual(
      late,
      [],
      `at second ${second} of the minute: ${late.map((s) => s - at)} ms ahead`,
    );
  }
});
