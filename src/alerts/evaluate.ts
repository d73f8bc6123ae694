/**
 * One evaluation of the rules: each instance's state moves pending → firing
 * (after `for`) → resolved, and the notices to send come out, each marked
 * with the silence that mutes it, if any. Pure but for the error shapes it
 * notes: the clock, the previous states and the silences come in, the new
 * states go out, and the caller keeps them (in Redis, for the next leader).
 *
 * @module
 */

import {
  type AlertNotice,
  type AlertRule,
  type AlertSilence,
  type AlertState,
  MAX_ALERT_STATES,
} from "../contract/alerts.ts";
import { type AlertSnapshot, type Measure, measure } from "./figures.ts";
import type { KnownShapes } from "./known_shapes.ts";
import { noticeOf } from "./notice.ts";

/** A resolved alert is kept this long (for the page and the history), then forgotten. */
export const RESOLVED_KEPT_MS = 24 * 3_600_000;

/** What one evaluation takes. */
export interface EvaluationInput {
  rules: readonly AlertRule[];
  snapshot: AlertSnapshot;
  /** The states the previous evaluation left, by {@link stateKey}. */
  states: ReadonlyMap<string, AlertState>;
  silences: readonly AlertSilence[];
  /** The error shapes seen lately, for `newErrorGroup`. */
  shapes: KnownShapes;
  /** Wall-clock time, ms since the epoch. */
  now: number;
  /** The board's absolute URL, no trailing slash: the notices' links start with it. */
  boardUrl: string;
  /**
   * Rules removed since the previous evaluation: their firing alerts resolve,
   * told as removed (a receiver would otherwise hold the incident open).
   */
  removed?: readonly AlertRule[];
}

/** A notice to send to `sinks`, unless `silencedBy` names the silence that mutes it. */
export interface PlannedNotice {
  notice: AlertNotice;
  sinks: readonly string[];
  silencedBy: string | null;
}

/** What one evaluation gives: the states to keep, and the notices. */
export interface Evaluation {
  states: Map<string, AlertState>;
  notices: PlannedNotice[];
}

/** The key of a rule's instance in the states. */
export function stateKey(rule: string, subject: string | null): string {
  return `${rule}\u0000${subject ?? ""}`;
}

/** The id of the silence that mutes `rule`'s alert about `task` at `now`, or null. */
export function silenceOf(
  silences: readonly AlertSilence[],
  rule: string,
  task: string | null,
  now: number,
): string | null {
  const muting = silences.find(({ scope, until }) =>
    until > now &&
    (scope === "all" || ("rule" in scope && scope.rule === rule) ||
      ("task" in scope && scope.task === task))
  );
  return muting?.id ?? null;
}

/**
 * Whether a muted notice of `state`'s firing is in the history already and
 * not due again: a firing muted throughout would otherwise be kept on every
 * pass (its `notifiedAt` stays as it was), pushing the notices sent out of
 * the capped history.
 */
function keptMuted(rule: AlertRule, state: AlertState, now: number): boolean {
  if (state.phase !== "firing" || state.mutedAt === undefined) return false;
  return rule.repeatMs === 0 || now - state.mutedAt < rule.repeatMs;
}

/** The next state of one instance, and whether to tell (`repeat` says if it repeats). */
function step(
  rule: AlertRule,
  previous: AlertState | undefined,
  measured: Measure,
  now: number,
): { state: AlertState | null; tell: { repeat: boolean } | null } {
  const last = previous?.phase === "resolved" ? undefined : previous;
  if (!measured.breached) {
    if (last === undefined) return { state: previous ?? null, tell: null };
    if (last.phase === "pending") return { state: null, tell: null };
    const state: AlertState = {
      ...last,
      phase: "resolved",
      resolvedAt: now,
      figure: measured.figure,
    };
    return { state, tell: last.notifiedAt === null ? null : { repeat: false } };
  }
  const state: AlertState = last === undefined
    ? {
      rule: rule.name,
      subject: measured.subject,
      task: measured.task,
      phase: "pending",
      pendingSince: now,
      firingSince: null,
      resolvedAt: null,
      figure: measured.figure,
      notifiedAt: null,
    }
    : { ...last, figure: measured.figure };
  if (state.phase === "pending") {
    if (now - state.pendingSince < rule.forMs) return { state, tell: null };
    state.phase = "firing";
    state.firingSince = now;
  }
  if (state.notifiedAt === null) return { state, tell: { repeat: false } };
  const due = rule.repeatMs > 0 && now - state.notifiedAt >= rule.repeatMs;
  return { state, tell: due ? { repeat: true } : null };
}

/**
 * Evaluates every rule on `input.snapshot`. An instance no longer measured
 * (its task is gone) clears; a rule the snapshot cannot measure (the store
 * did not answer) keeps its states as they were; states of rules no longer
 * configured, and resolved ones older than {@link RESOLVED_KEPT_MS} (or the
 * oldest past {@link MAX_ALERT_STATES}), are dropped; those of a rule just
 * `removed` resolve first, told. A notice a silence mutes leaves `notifiedAt` as it was, so the
 * firing is told when the silence ends, and an incident never told
 * resolves without a notice; it is kept (as muted) once, then once per
 * `repeat`.
 */
export function evaluateRules(input: EvaluationInput): Evaluation {
  const { rules, snapshot, states, silences, shapes, now, boardUrl, removed = [] } = input;
  const next = new Map<string, AlertState>();
  const notices: PlannedNotice[] = [];
  const byRule = Map.groupBy(states, ([, state]) => state.rule);
  for (const rule of [...rules, ...removed]) {
    const gone = removed.includes(rule);
    const ofRule = byRule.get(rule.name) ?? [];
    // A removed rule measures nothing: each of its alerts clears.
    const measures = gone ? [] : measure(rule, snapshot, shapes, now);
    if (measures === null) {
      for (const [key, state] of ofRule) next.set(key, state);
      continue;
    }
    const measured = new Map(measures.map((m) => [stateKey(rule.name, m.subject), m]));
    for (const [key, state] of ofRule) {
      if (!measured.has(key)) {
        const { subject, task, figure } = state;
        measured.set(key, { subject, task, figure, breached: false });
      }
    }
    for (const [key, m] of measured) {
      const { state, tell } = step(rule, states.get(key), m, now);
      if (state === null) continue;
      if (state.phase === "resolved" && now - state.resolvedAt! > RESOLVED_KEPT_MS) continue;
      const silencedBy = tell && silenceOf(silences, rule.name, state.task, now);
      if (tell !== null && (silencedBy === null || !keptMuted(rule, state, now))) {
        if (state.phase === "firing") {
          if (silencedBy === null) state.notifiedAt = now;
          else state.mutedAt = now;
        }
        const notice = noticeOf(rule, state, { repeat: tell.repeat, now, boardUrl, removed: gone });
        // A rule stored before its sinks had to be unique may name one twice: told once.
        notices.push({ notice, sinks: [...new Set(rule.sinks)], silencedBy });
      }
      if (!gone) next.set(key, state);
    }
  }
  dropOldestResolved(next, next.size - MAX_ALERT_STATES);
  return { states: next, notices };
}

/**
 * Drops the `count` resolved states resolved first. They tell nothing (a
 * breach after one starts a new incident), and past {@link MAX_ALERT_STATES}
 * the store refuses every state, so a rule on thousands of tasks would leave
 * the next leader none to go on from.
 */
function dropOldestResolved(states: Map<string, AlertState>, count: number): void {
  if (count <= 0) return;
  const resolved = [...states].filter(([, state]) => state.phase === "resolved")
    .sort(([, a], [, b]) => a.resolvedAt! - b.resolvedAt!);
  for (const [key] of resolved.slice(0, count)) states.delete(key);
}
