/**
 * A pass's notices grouped one per rule (and silence): a rule with one alert
 * to tell sends its notice unchanged, one with many sends one notice
 * listing them, capped, firing ones first.
 */

import assert from "node:assert/strict";
import { groupNotices } from "../../src/alerts/group.ts";
import type { PlannedNotice } from "../../src/alerts/evaluate.ts";
import { type AlertNotice, MAX_GROUPED_ALERTS } from "../../src/contract/alerts.ts";

function planned(
  rule: string,
  task: string,
  { state = "firing", figure = 5, silencedBy = null }: {
    state?: AlertNotice["state"];
    figure?: number | null;
    silencedBy?: string | null;
  } = {},
): PlannedNotice {
  const notice: AlertNotice = {
    rule,
    kind: "failed",
    state,
    key: `${rule}/${task}/100`,
    task,
    figure,
    threshold: 4,
    unit: "count",
    since: 100 + task.length,
    at: 1000,
    repeat: false,
    link: `/board/tasks/${task}`,
    summary: `${task}: failed is ${figure}`,
  };
  return { notice, sinks: ["ops"], silencedBy };
}

Deno.test("a rule with one alert to tell sends its notice as it is", () => {
  const one = planned("mail", "send-email");
  assert.deepEqual(groupNotices([one], "/board"), [one]);
});

Deno.test("a rule's many alerts make one notice: firing first, the worst figure, the list capped", () => {
  const tasks = Array.from({ length: 30 }, (_, i) => `task-${i}`);
  const [grouped, other] = groupNotices([
    planned("storm", "gone", { state: "resolved", figure: 1 }),
    ...tasks.map((task, i) => planned("storm", task, { figure: i === 7 ? 90 : 5 })),
    planned("other", "send-email"),
  ], "/board");
  const { notice } = grouped;
  assert.deepEqual(
    [notice.rule, notice.state, notice.task, notice.figure, notice.count, notice.link],
    ["storm", "firing", null, 90, 31, "/board/alerts"],
  );
  assert.equal(notice.since, 104, "the earliest");
  assert.equal(notice.key, "storm/*/1000");
  assert.equal(notice.alerts!.length, MAX_GROUPED_ALERTS);
  assert.deepEqual(notice.alerts![0], {
    key: "storm/task-0/100",
    state: "firing",
    task: "task-0",
    figure: 5,
    since: 106,
    repeat: false,
    link: "/board/tasks/task-0",
    summary: "task-0: failed is 5",
  });
  assert.equal(
    notice.summary,
    "storm: 31 alerts, 30 firing, 1 resolved: task-0, task-1, task-2, task-3, task-4, task-5, " +
      "task-6, task-7, task-8, task-9 and 21 more",
  );
  assert.equal(other.notice.rule, "other");
});

Deno.test("a rule's muted alerts are grouped apart from those it sends", () => {
  const groups = groupNotices([
    planned("mail", "a"),
    planned("mail", "b", { silencedBy: "s1" }),
    planned("mail", "c", { silencedBy: "s1" }),
    planned("mail", "d", { state: "resolved" }),
  ], "");
  assert.deepEqual(
    groups.map(({ notice, silencedBy }) => [notice.summary, silencedBy]),
    [["mail: 2 alerts, 1 firing, 1 resolved: a, d", null], ["mail: 2 alerts firing: b, c", "s1"]],
  );
});
