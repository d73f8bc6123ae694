/**
 * `GET /schedules` answers a list whose records, board runs and access are
 * the last list's with the last list's text, without asking for any
 * schedule's text again; a change of any of them writes the list anew.
 */

import assert from "node:assert/strict";
import type { BoardRun, ScheduleRecord } from "../../src/contract/schedules.ts";
import { ScheduleTexts } from "../../src/schedules/texts.ts";

/** Texts that count how often a schedule's text is asked for. */
class CountedTexts extends ScheduleTexts {
  asked = 0;
  override text(schedule: ScheduleRecord, runs: readonly BoardRun[], withData: boolean): string {
    this.asked++;
    return super.text(schedule, runs, withData);
  }
}

function recordOf(name: string): ScheduleRecord {
  return {
    name,
    config: { task: "report", every: 60_000, data: { secret: name } },
    nextRun: 1_000,
    lastRun: null,
    lastJobId: null,
    lastRunStatus: null,
    paused: false,
  };
}

Deno.test("ScheduleTexts.list answers the last list's text while its records, runs and access are the same", () => {
  const texts = new CountedTexts((schedule, runs, withData) =>
    JSON.stringify({
      name: schedule.name,
      runs: runs.map((run) => run.state),
      data: withData ? schedule.config.data : null,
    })
  );
  const schedules = [recordOf("a"), recordOf("b")];
  const run: BoardRun = { jobId: "j-1", at: 500, by: "board", state: "active" };
  const runs = new Map([["a", [run]]]);

  const first = texts.list(schedules, runs, [true, false]);
  assert.equal(
    first,
    '[{"name":"a","runs":["active"],"data":{"secret":"a"}},{"name":"b","runs":[],"data":null}]',
  );
  assert.equal(texts.asked, 2);

  // The same records (a new array), equal runs read again, the same access: no schedule asked.
  const again = texts.list([...schedules], new Map([["a", [{ ...run }]]]), [true, false]);
  assert.equal(again, first);
  assert.equal(texts.asked, 2);

  // Another access, a run that moved, a record made anew: each writes the list again.
  assert.match(
    texts.list(schedules, runs, [false, false]),
    /"name":"a","runs":\["active"\],"data":null/,
  );
  assert.equal(texts.asked, 4);
  const moved = new Map([["a", [{ ...run, state: "completed" as const }]]]);
  assert.match(texts.list(schedules, moved, [false, false]), /"runs":\["completed"\]/);
  const remade = [recordOf("a"), schedules[1]];
  texts.list(remade, moved, [false, false]);
  assert.equal(texts.asked, 8);
});
