/**
 * A notice from an alert's state: its dedupe key, its summary in words, and
 * the board page to look at.
 *
 * @module
 */

import {
  type AlertNotice,
  type AlertRule,
  type AlertsConfig,
  type AlertState,
  KIND_THRESHOLDS,
} from "../contract/alerts.ts";
import { roughDuration } from "../contract/health.ts";

/**
 * The dedupe key of the incident `state` is in: the rule, the subject and
 * when it fired, so repeats and the resolve share it and the next incident
 * has another. It is made of stored values only, so a leader taking over
 * makes the same one.
 */
export function dedupeKey(state: AlertState): string {
  const subject = encodeURIComponent(state.subject ?? "");
  return `${encodeURIComponent(state.rule)}/${subject}/${state.firingSince}`;
}

function shown(rule: AlertRule, value: number | null): string {
  if (value === null) return "unknown";
  switch (KIND_THRESHOLDS[rule.kind].unit) {
    case "percent":
      return `${value} %`;
    case "duration":
      return roughDuration(value);
    default:
      return String(value);
  }
}

function summaryOf(
  rule: AlertRule,
  state: AlertState,
  firing: boolean,
  removed: boolean,
): string {
  const about = state.subject ?? "Redis";
  if (removed) return `${about}: the rule was removed, so this alert is no longer watched`;
  if (rule.kind === "redis" && state.figure === null) {
    return firing ? `${about}: unreachable` : `${about}: reachable again`;
  }
  const above = `${firing ? "" : "no longer "}above ${shown(rule, rule.threshold)}`;
  return `${about}: ${rule.kind} is ${shown(rule, state.figure)}, ${above}`;
}

/** The board page a notice of `rule` about `task` links to. */
function linkOf(rule: AlertRule, task: string | null, boardUrl: string): string {
  switch (rule.kind) {
    case "scheduleMissed":
      return `${boardUrl}/schedules`;
    case "newErrorGroup":
      return `${boardUrl}/dlq`;
    case "migrationLock":
      return `${boardUrl}/migrations`;
    default:
      return task === null ? `${boardUrl}/` : `${boardUrl}/tasks/${encodeURIComponent(task)}`;
  }
}

/**
 * The notice of `state` (firing or just resolved) at `now`; `boardUrl` has no
 * trailing slash; `removed`: resolved because its rule was removed.
 */
export function noticeOf(
  rule: AlertRule,
  state: AlertState,
  { repeat, now, boardUrl, removed = false }: {
    repeat: boolean;
    now: number;
    boardUrl: string;
    removed?: boolean;
  },
): AlertNotice {
  const firing = state.phase === "firing";
  const notice: AlertNotice = {
    rule: rule.name,
    kind: rule.kind,
    state: firing ? "firing" : "resolved",
    key: dedupeKey(state),
    task: state.task,
    figure: state.figure,
    threshold: rule.threshold,
    unit: KIND_THRESHOLDS[rule.kind].unit,
    since: state.firingSince!,
    at: now,
    repeat,
    link: linkOf(rule, state.task, boardUrl),
    summary: summaryOf(rule, state, firing, removed),
  };
  if (rule.kind === "scheduleMissed" && state.subject !== null) notice.schedule = state.subject;
  return notice;
}

/** Where the notices' links start: `config.boardUrl`, else the base path (`""` for `/`). */
export function boardUrlOf(config: AlertsConfig, basePath = ""): string {
  return config.boardUrl ?? (basePath === "/" ? "" : basePath);
}

/**
 * A test notice (`POST /alerts/test`): `test: true`, state `firing`, rule
 * "test notice", about nothing; its key is new each time.
 */
export function testNotice(now: number, boardUrl: string): AlertNotice {
  return {
    rule: "test notice",
    kind: "test",
    state: "firing",
    key: `test/${now}`,
    task: null,
    figure: null,
    threshold: 0,
    unit: "none",
    since: now,
    at: now,
    repeat: false,
    link: `${boardUrl}/alerts`,
    summary: "A test notice from the board: nothing fires",
    test: true,
  };
}
