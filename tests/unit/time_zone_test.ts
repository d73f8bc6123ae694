import assert from "node:assert/strict";
import {
  isTimeZone,
  offsetLabel,
  sameDay,
  zonedFormat,
  zoneLabel,
} from "../../ui/lib/time_zone.ts";

/** 2026-01-15 12:00 UTC (winter) and 2026-07-15 12:00 UTC (summer). */
const WINTER = Date.UTC(2026, 0, 15, 12);
const SUMMER = Date.UTC(2026, 6, 15, 12);

Deno.test("offsetLabel() writes a zone's offset at an instant as UTC±hh:mm", () => {
  assert.equal(offsetLabel(WINTER, "Europe/Berlin"), "UTC+01:00");
  assert.equal(offsetLabel(SUMMER, "Europe/Berlin"), "UTC+02:00", "daylight saving time");
  assert.equal(offsetLabel(WINTER, "America/St_Johns"), "UTC-03:30");
  assert.equal(offsetLabel(WINTER, "Asia/Kolkata"), "UTC+05:30");
  assert.equal(offsetLabel(WINTER, "UTC"), "UTC");
});

Deno.test("zoneLabel() names a chosen zone and its offset; UTC is just UTC", () => {
  assert.equal(zoneLabel(WINTER, "Asia/Tokyo"), "Asia/Tokyo (UTC+09:00)");
  assert.equal(zoneLabel(SUMMER, "Europe/Berlin"), "Europe/Berlin (UTC+02:00)");
  assert.equal(zoneLabel(WINTER, "UTC"), "UTC");
  // The browser's own zone (these tests run in the process's zone) is its offset alone.
  assert.equal(zoneLabel(WINTER), offsetLabel(WINTER));
});

Deno.test("a zone the browser does not know falls back to the browser's, and says so", () => {
  assert.equal(isTimeZone("Mars/Olympus"), false);
  assert.equal(isTimeZone("Europe/Berlin"), true);
  assert.equal(zoneLabel(WINTER, "Mars/Olympus"), offsetLabel(WINTER));
  const fields = { hour: "2-digit", minute: "2-digit", hourCycle: "h23" } as const;
  assert.equal(
    zonedFormat("t", fields, { timeZone: "Mars/Olympus", locale: "en-US" }).format(WINTER),
    zonedFormat("t", fields, { locale: "en-US" }).format(WINTER),
  );
});

Deno.test("zonedFormat() formats in the zone asked for", () => {
  const fields = { hour: "2-digit", minute: "2-digit", hourCycle: "h23" } as const;
  const at = (timeZone: string) => zonedFormat("hm", fields, { timeZone, locale: "en-US" });
  assert.equal(at("UTC").format(WINTER), "12:00");
  assert.equal(at("Asia/Tokyo").format(WINTER), "21:00");
  assert.equal(at("America/New_York").format(WINTER), "07:00");
});

Deno.test("sameDay() compares calendar days in the zone, not in UTC", () => {
  const lateUtc = Date.UTC(2026, 0, 15, 23, 30);
  const earlyUtc = Date.UTC(2026, 0, 15, 0, 30);
  assert.equal(sameDay(lateUtc, earlyUtc, "UTC"), true);
  assert.equal(
    sameDay(lateUtc, earlyUtc, "Asia/Tokyo"),
    false,
    "08:30 on the 16th vs 09:30 on the 15th",
  );
  assert.equal(sameDay(lateUtc, lateUtc + 3600_000, "UTC"), false);
});
