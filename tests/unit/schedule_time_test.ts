import assert from "node:assert/strict";
import { assertValidCron, nextRunOf } from "../../src/source/schedule_time.ts";

const FROM = Date.UTC(2026, 10, 23, 12); // Monday 23 Nov 2026, 12:00 UTC

Deno.test("nextRunOf() computes a cron schedule's next run in its own time zone", () => {
  // 03:00 in Tokyo (UTC+9) is 18:00 UTC the day before; in Berlin (UTC+1), 02:00 UTC.
  assert.equal(
    nextRunOf({ cron: "0 3 * * *", timezone: "Asia/Tokyo" }, FROM),
    Date.UTC(2026, 10, 23, 18),
  );
  assert.equal(
    nextRunOf({ cron: "0 3 * * *", timezone: "Europe/Berlin" }, FROM),
    Date.UTC(2026, 10, 24, 2),
  );
  assert.equal(nextRunOf({ every: 60_000 }, FROM), FROM + 60_000);
});

Deno.test("assertValidCron() blames the time zone or the expression, by param", () => {
  const param = (fn: () => void) => {
    try {
      fn();
    } catch (error) {
      return (error as { param?: string }).param;
    }
  };
  assert.equal(param(() => assertValidCron("0 3 * * *", "Mars/Base")), "timezone");
  assert.equal(param(() => assertValidCron("every day", "Europe/Berlin")), "cron");
  assert.equal(param(() => assertValidCron("every day")), "cron");
  assert.equal(param(() => assertValidCron("0 3 * * *", "Europe/Berlin")), undefined);
});
