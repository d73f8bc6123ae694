import assert from "node:assert/strict";
import {
  formatCount,
  formatCountOf,
  formatDateTime,
  formatDuration,
  formatElapsed,
  formatLogTime,
  formatRelative,
  formatShortCount,
  shortId,
} from "../../ui/lib/format.ts";

const AT = Date.UTC(2026, 10, 23, 13, 3, 12, 345);
const en = { locale: "en-GB" };

Deno.test("formatDuration() gives the two largest units, the smaller only when not zero", () => {
  assert.equal(formatDuration(42), "42s");
  assert.equal(formatDuration(3 * 60 + 12), "3m 12s");
  assert.equal(formatDuration(5 * 3600 + 12 * 60 + 9), "5h 12m");
  assert.equal(formatDuration(3 * 86400 + 4 * 3600), "3d 4h");
  assert.equal(formatDuration(30 * 86400 + 59), "30d", "not 30d 0h");
  assert.equal(formatDuration(2 * 3600), "2h");
  assert.equal(formatDuration(60), "1m");
  assert.equal(formatDuration(-1), "—");
  assert.equal(formatDuration(Number.NaN), "—");
});

Deno.test("formatElapsed() keeps milliseconds for short spans", () => {
  assert.equal(formatElapsed(27), "27 ms");
  assert.equal(formatElapsed(1400), "1.4 s");
  assert.equal(formatElapsed(192_000), "3m 12s");
  assert.equal(formatElapsed(-5), "—");
});

Deno.test("formatRelative() says how long ago or how soon, against the time given", () => {
  assert.equal(formatRelative(AT - 3000, AT), "3s ago");
  assert.equal(formatRelative(AT + 12_000, AT), "in 12s");
  assert.equal(formatRelative(AT - 61_000, AT), "1m 1s ago");
  assert.equal(formatRelative(AT + 400, AT), "now");
  assert.equal(formatRelative(null, AT), "—");
});

Deno.test("formatDateTime() names the zone the time is shown in", () => {
  assert.equal(
    formatDateTime(AT, { ...en, timeZone: "Europe/Berlin" }),
    "23 Nov 2026, 14:03:12 Europe/Berlin (UTC+01:00)",
  );
  assert.equal(formatDateTime(AT, { ...en, timeZone: "UTC" }), "23 Nov 2026, 13:03:12 UTC");
  assert.match(formatDateTime(AT, en), / UTC([+-]\d\d:\d\d)?$/, "the browser's zone: its offset");
  assert.equal(formatDateTime(null), "—");
});

Deno.test("formatLogTime() shows the day only when it is not today", () => {
  const berlin = { ...en, timeZone: "Europe/Berlin" };
  assert.equal(formatLogTime(AT, AT + 3600_000, berlin), "14:03:12.345");
  assert.equal(formatLogTime(AT, AT + 86_400_000, berlin), "23 Nov, 14:03:12.345");
  // 23:30 UTC is already tomorrow in Berlin.
  const lateUtc = Date.UTC(2026, 10, 23, 23, 30);
  assert.equal(formatLogTime(AT, lateUtc, { ...en, timeZone: "UTC" }), "13:03:12.345");
  assert.equal(formatLogTime(AT, lateUtc, berlin), "23 Nov, 14:03:12.345");
});

Deno.test("formatCount() and formatCountOf() group digits and agree in number", () => {
  assert.equal(formatCount(12345), "12,345");
  assert.equal(formatCount("12"), "—");
  assert.equal(formatCountOf(1, "job"), "1 job");
  assert.equal(formatCountOf(1200, "job"), "1,200 jobs");
});

Deno.test("shortId() keeps the first 8 characters, as the UI shows ids", () => {
  assert.equal(shortId("1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d"), "1a2b3c4d");
  assert.equal(shortId("job-7"), "job-7");
});

Deno.test("formatShortCount() fits a count in a few characters: 10k, 250k, 1.5M", () => {
  assert.equal(formatShortCount(950), "950");
  assert.equal(formatShortCount(10_000), "10k");
  assert.equal(formatShortCount(250_000), "250k");
  assert.equal(formatShortCount(1_500_000), "1.5M");
});
