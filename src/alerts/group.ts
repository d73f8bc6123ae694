/**
 * Grouping a pass's notices as Alertmanager groups alerts: a rule with
 * several alerts to tell on one pass (a storm over 1,000 tasks) sends one
 * notice listing them, capped, not one post per task. A rule with one alert
 * to tell sends its notice as it is.
 *
 * @module
 */

import { type AlertNotice, type GroupedAlert, MAX_GROUPED_ALERTS } from "../contract/alerts.ts";
import type { PlannedNotice } from "./evaluate.ts";

/** The subjects a grouped notice's summary names before "and N more". */
const SUMMARY_SUBJECTS = 10;

function groupedAlertOf(notice: AlertNotice): GroupedAlert {
  const { key, state, task, schedule, figure, since, repeat, link, summary } = notice;
  const alert: GroupedAlert = { key, state, task, figure, since, repeat, link, summary };
  if (schedule !== undefined) alert.schedule = schedule;
  return alert;
}

/** What an alert is about, in a summary: its schedule, its task, or the store. */
function subjectOf(notice: AlertNotice): string {
  return notice.schedule ?? notice.task ?? "Redis";
}

/**
 * "storm: 1000 alerts firing: task-0, task-1, … and 990 more", or "resolved",
 * or "5 alerts, 3 firing, 2 resolved" when they differ.
 */
function summaryOf(rule: string, notices: readonly AlertNotice[]): string {
  const firing = notices.filter((notice) => notice.state === "firing").length;
  const resolved = notices.length - firing;
  const states = firing === 0
    ? " resolved"
    : resolved === 0
    ? " firing"
    : `, ${firing} firing, ${resolved} resolved`;
  const named = notices.slice(0, SUMMARY_SUBJECTS).map(subjectOf).join(", ");
  const more = notices.length - SUMMARY_SUBJECTS;
  const rest = more > 0 ? ` and ${more} more` : "";
  return `${rule}: ${notices.length} alerts${states}: ${named}${rest}`;
}

/**
 * One notice for `notices` (a rule's, two or more, firing first): state
 * `firing` while any fires, the worst figure, the earliest `since`, a key
 * of its own (each listed alert keeps its incident's), a link to the
 * Alerts page.
 */
function groupedNotice(notices: readonly AlertNotice[], boardUrl: string): AlertNotice {
  const [first] = notices;
  const figures = notices.flatMap((notice) => notice.figure === null ? [] : [notice.figure]);
  return {
    rule: first.rule,
    kind: first.kind,
    state: first.state,
    key: `${encodeURIComponent(first.rule)}/*/${first.at}`,
    task: null,
    figure: figures.length === 0 ? null : figures.reduce((a, b) => Math.max(a, b)),
    threshold: first.threshold,
    unit: first.unit,
    since: notices.reduce((earliest, notice) => Math.min(earliest, notice.since), first.since),
    at: first.at,
    repeat: notices.every((notice) => notice.repeat),
    link: `${boardUrl}/alerts`,
    summary: summaryOf(first.rule, notices),
    alerts: notices.slice(0, MAX_GROUPED_ALERTS).map(groupedAlertOf),
    count: notices.length,
  };
}

/**
 * One notice per rule and silence among `planned` (one pass's), in the
 * order of each group's first; `boardUrl` starts a group's link.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { groupNotices } from "./group.ts";
 * import type { AlertNotice } from "../contract/alerts.ts";
 * const notice = (task: string): AlertNotice => ({
 *   rule: "failing", kind: "failed", state: "firing", key: `failing/${task}/1`, task,
 *   figure: 5, threshold: 4, unit: "count", since: 1, at: 1, repeat: false,
 *   link: `/tasks/${task}`, summary: `${task}: failed is 5, above 4`,
 * });
 * const [grouped] = groupNotices(
 *   ["a", "b"].map((task) => ({ notice: notice(task), sinks: ["ops"], silencedBy: null })),
 *   "",
 * );
 * assert.equal(grouped.notice.count, 2);
 * assert.equal(grouped.notice.summary, "failing: 2 alerts firing: a, b");
 * ```
 */
export function groupNotices(planned: readonly PlannedNotice[], boardUrl: string): PlannedNotice[] {
  const groups = Map.groupBy(
    planned,
    ({ notice, silencedBy }) => `${notice.rule}\u0000${silencedBy}`,
  );
  return [...groups.values()].map((group) => {
    if (group.length === 1) return group[0];
    // Firing first: those are what the capped list must not leave out.
    const notices = group.map(({ notice }) => notice).sort((a, b) =>
      Number(b.state === "firing") - Number(a.state === "firing")
    );
    const [{ sinks, silencedBy }] = group;
    return { notice: groupedNotice(notices, boardUrl), sinks, silencedBy };
  });
}
