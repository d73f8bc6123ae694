import assert from "node:assert/strict";
import { ScheduleTimings } from "../../src/schedules/timings.ts";
import { describeSchedule } from "../../src/schedules/words.ts";
import { upcomingRunsOf } from "../../src/source/schedule_time.ts";
import { UPCOMING_RUNS } from "../../src/contract/schedules.ts";

const BERLIN = { task: "report", cron: "30 4 * * *", timezone: "Europe/Berlin" };
const NEXT = Date.UTC(2026, 10, 30, 3, 30);

Deno.test("ScheduleTimings words a timing and counts its runs ahead once per change", () => {
  const timings = new ScheduleTimings();
  const first = timings.of(BERLIN, NEXT);
  assert.deepEqual(first, {
    description: describeSchedule(BERLIN),
    upcomingRuns: upcomingRunsOf(BERLIN, NEXT, UPCOMING_RUNS),
  });
  // The same timing and next run again (another request): the kept answer, not worded anew.
  assert.equal(timings.of({ ...BERLIN, task: "other", data: { a: 1 } } as never, NEXT), first);
  // The schedule ran: its next run moved, so its runs ahead are counted again.
  const later = timings.of(BERLIN, first.upcomingRuns[1]);
  assert.notEqual(later, first);
  assert.deepEqual(
    later.upcomingRuns,
    upcomingRunsOf(BERLIN, first.upcomingRuns[1], UPCOMING_RUNS),
  );
  // Paused: no runs ahead, the words kept.
  assert.deepEqual(timings.of(BERLIN, null), { description: first.description, upcomingRuns: [] });
});

Deno.test("ScheduleTimings keeps at most its bound, the least recently asked leaving first", () => {
  const timings = new ScheduleTimings(2);
  const every = (ms: number) => ({ task: "ping", every: ms });
  const a = timings.of(every(1000), 0);
  const b = timings.of(every(2000), 0);
  assert.equal(timings.of(every(1000), 0), a, "asked again: now the most recent");
  timings.of(every(3000), 0); // b, asked least recently, leaves
  assert.equal(timings.size, 2);
  assert.equal(timings.of(every(1000), 0), a);
  const again = timings.of(every(2000), 0);
  assert.notEqual(again, b, "worded anew");
  assert.deepEqual(again, b);
});
