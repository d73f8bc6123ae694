import assert from "node:assert/strict";
import { BoardError } from "../../src/errors.ts";
import {
  applySchedulePatch,
  checkSchedulePatch,
  MIN_EVERY_MS,
  parseSchedulePatch,
} from "../../src/source/schedule_patch.ts";
import type { SchedulePatch } from "../../src/source/types.ts";

/** Asserts `run` throws `INVALID_PARAM` naming `param`, its message matching `mentions`. */
function refused(run: () => unknown, param: string, mentions: RegExp): void {
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof BoardError, String(error));
    assert.equal(error.code, "INVALID_PARAM");
    assert.equal(error.param, param, error.message);
    assert.match(error.message, mentions);
    return true;
  });
}

const NIGHTLY = { task: "report", cron: "0 3 * * *", timezone: "UTC", lastRun: 5, lastJobId: "j" };
const HEARTBEAT = { task: "ping", every: 60_000, onMissed: "skip", custom: 1 };

Deno.test("parseSchedulePatch() reads every as ms or a duration and keeps the other fields", () => {
  assert.deepEqual(parseSchedulePatch({ every: "5m", data: null, overlap: true }), {
    every: 300_000,
    data: null,
    overlap: true,
  });
  assert.deepEqual(parseSchedulePatch({ every: 1500 }), { every: 1500 });
  assert.deepEqual(
    parseSchedulePatch({
      cron: "*/5 * * * *",
      timezone: "Asia/Tokyo",
      onMissed: "catch-up-limit:3",
    }),
    { cron: "*/5 * * * *", timezone: "Asia/Tokyo", onMissed: "catch-up-limit:3" },
  );
});

Deno.test("parseSchedulePatch() refuses an empty body and an every that is no duration", () => {
  refused(() => parseSchedulePatch({}), "body", /nothing to change \(fields: cron, every/);
  refused(() => parseSchedulePatch({ every: "often" }), "every", /at least 1000 ms.*"often"/);
  refused(() => parseSchedulePatch({ every: "999ms" }), "every", /\(got 999\)/);
});

Deno.test("checkSchedulePatch() names the field at fault", () => {
  const cases: [SchedulePatch, string, RegExp][] = [
    [{ cron: "0 3 * * *", every: 60_000 }, "cron", /exclusive/],
    [{ cron: "" }, "cron", /not blank/],
    [{ cron: "  " }, "cron", /not blank/],
    [{ cron: `0 3 * * * ${"x".repeat(200)}` }, "cron", /at most 200/],
    [{ cron: "every day" }, "cron", /"every day" is not a valid schedule/],
    [{ cron: 5 as unknown as string }, "cron", /string \(got number\)/],
    [{ every: MIN_EVERY_MS - 1 }, "every", /at least 1000 ms/],
    [{ every: 1500.5 }, "every", /at least 1000 ms/],
    [{ timezone: 1 as unknown as string }, "timezone", /IANA time zone name or null/],
    [{ timezone: "Mars/Base" }, "timezone", /"Mars\/Base" is not an IANA time zone/],
    [{ cron: "every day", timezone: "Mars/Base" }, "timezone", /Mars/],
    [{ onMissed: "later" }, "onMissed", /skip, catch-up or catch-up-limit:N \(got "later"\)/],
    [{ onMissed: `catch-up-limit:${"9".repeat(100)}` }, "onMissed", /at most 100/],
    [{ overlap: "yes" as unknown as boolean }, "overlap", /boolean/],
  ];
  for (const [patch, param, mentions] of cases) {
    refused(() => checkSchedulePatch(patch), param, mentions);
  }
  checkSchedulePatch({ every: MIN_EVERY_MS, timezone: null }); // the least it takes
});

Deno.test("applySchedulePatch(): cron drops every, every drops cron and its time zone", () => {
  assert.deepEqual(applySchedulePatch(HEARTBEAT, { cron: "0 * * * *" }), {
    task: "ping",
    cron: "0 * * * *",
    onMissed: "skip",
    custom: 1,
  });
  assert.deepEqual(applySchedulePatch(NIGHTLY, { every: 30_000 }), {
    task: "report",
    every: 30_000,
    lastRun: 5,
    lastJobId: "j",
  });
});

Deno.test("applySchedulePatch(): a null time zone removes it; other fields replace theirs", () => {
  assert.deepEqual(applySchedulePatch(NIGHTLY, { timezone: null }), {
    task: "report",
    cron: "0 3 * * *",
    lastRun: 5,
    lastJobId: "j",
  });
  assert.deepEqual(
    applySchedulePatch(HEARTBEAT, { data: { to: "ops" }, onMissed: "catch-up", overlap: false }),
    { ...HEARTBEAT, data: { to: "ops" }, onMissed: "catch-up", overlap: false },
  );
  assert.deepEqual(applySchedulePatch(HEARTBEAT, { data: null }), { ...HEARTBEAT, data: null });
});

Deno.test("applySchedulePatch() refuses what is no schedule, and leaves the stored one alone", () => {
  const stored = { ...HEARTBEAT };
  refused(() => applySchedulePatch(stored, { timezone: "UTC" }), "timezone", /only .* cron/);
  refused(() => applySchedulePatch({ task: "t" }, { overlap: true }), "schedule", /every or cron/);
  assert.deepEqual(stored, HEARTBEAT);
});
