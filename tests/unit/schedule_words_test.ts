import assert from "node:assert/strict";
import { describeSchedule } from "../../src/schedules/words.ts";
import { upcomingRunsOf } from "../../src/source/schedule_time.ts";

const ZONES = ["UTC", "Europe/Berlin", "America/New_York"] as const;

/** Twelve expressions and their words: the hours are the zone's own wall clock. */
const WORDS: ReadonlyArray<readonly [string, string]> = [
  ["30 4 * * *", "At 04:30, every day"],
  ["*/15 * * * *", "Every 15 minutes"],
  ["0 9 * * 1-5", "At 09:00, Monday through Friday"],
  ["0 0 1 * *", "At 00:00, on day 1 of the month"],
  ["0 */2 * * *", "On the hour, every 2 hours"],
  ["5 4 * * sun", "At 04:05, only on Sunday"],
  ["0 0 1 1 *", "At 00:00, on day 1 of the month, only in January"],
  ["*/30 * * * * *", "Every 30 seconds"],
  ["0 12 * * 0,6", "At 12:00, only on Sunday and Saturday"],
  ["0 9,17 * * *", "At 09:00 and 17:00, every day"],
  ["23 * * * *", "At 23 minutes past the hour"],
  [
    "23 0-20/2 * * *",
    "At 23 minutes past the hour, every 2 hours, between 00:00 and 20:59",
  ],
];

for (const timezone of ZONES) {
  Deno.test(`describeSchedule() words 12 cron expressions in ${timezone}`, () => {
    for (const [cron, words] of WORDS) {
      assert.equal(
        describeSchedule({ task: "t", cron, timezone }),
        `${words} (${timezone})`,
        cron,
      );
    }
  });
}

Deno.test("describeSchedule() names the worker's zone for a cron without one", () => {
  assert.equal(
    describeSchedule({ task: "t", cron: "30 4 * * *" }),
    "At 04:30, every day (worker time zone)",
  );
});

Deno.test("describeSchedule() words intervals in their largest whole unit", () => {
  assert.equal(describeSchedule({ task: "t", every: 30_000 }), "Every 30 seconds");
  assert.equal(describeSchedule({ task: "t", every: 1000 }), "Every second");
  assert.equal(describeSchedule({ task: "t", every: 604_800_000 }), "Every 7 days");
  assert.equal(describeSchedule({ task: "t", every: 90_000 }), "Every 90 seconds");
  assert.equal(describeSchedule({ task: "t", every: 1500 }), "Every 1500 milliseconds");
});

Deno.test("describeSchedule() answers null for an expression it cannot read, never throws", () => {
  assert.equal(describeSchedule({ task: "t", cron: "every day" }), null);
  assert.equal(describeSchedule({ task: "t" }), null);
});

Deno.test("upcomingRunsOf() counts cron runs on from the next one, in the schedule's zone", () => {
  // Berlin leaves summer time on 25 Oct 2026: 04:30 is 02:30 UTC before, 03:30 UTC after.
  const next = Date.UTC(2026, 9, 23, 2, 30);
  assert.deepEqual(
    upcomingRunsOf({ cron: "30 4 * * *", timezone: "Europe/Berlin" }, next, 5),
    [
      Date.UTC(2026, 9, 23, 2, 30),
      Date.UTC(2026, 9, 24, 2, 30),
      Date.UTC(2026, 9, 25, 3, 30),
      Date.UTC(2026, 9, 26, 3, 30),
      Date.UTC(2026, 9, 27, 3, 30),
    ],
  );
  // New York leaves it on 1 Nov 2026: 09:00 weekdays is 13:00 UTC, then 14:00 UTC.
  assert.deepEqual(
    upcomingRunsOf(
      { cron: "0 9 * * 1-5", timezone: "America/New_York" },
      Date.UTC(2026, 9, 29, 13),
      5,
    ),
    [
      Date.UTC(2026, 9, 29, 13),
      Date.UTC(2026, 9, 30, 13),
      Date.UTC(2026, 10, 2, 14),
      Date.UTC(2026, 10, 3, 14),
      Date.UTC(2026, 10, 4, 14),
    ],
  );
});

Deno.test("upcomingRunsOf() steps an interval, and has none without a next run", () => {
  assert.deepEqual(upcomingRunsOf({ every: 30_000 }, 1000, 3), [1000, 31_000, 61_000]);
  assert.deepEqual(upcomingRunsOf({ every: 30_000 }, null, 5), []);
  // A stored next run stays the first, even for an expression that no longer parses.
  assert.deepEqual(upcomingRunsOf({ cron: "every day" }, 5000, 5), [5000]);
});
