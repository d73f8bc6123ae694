/**
 * What `GET /alerts` answers, made from what the store holds: every rule
 * (the code's, then the stored ones) with the alerts of it the last
 * evaluation left, which of them a silence mutes now, and the sinks by name
 * only. Pure: the states, rules, silences and clock come in.
 *
 * @module
 */

import {
  type AlertRule,
  type AlertRuleOrigin,
  type AlertRuleView,
  type AlertsConfig,
  type AlertSilence,
  type AlertsOverview,
  type AlertStatus,
  KIND_THRESHOLDS,
} from "../contract/alerts.ts";
import { silenceOf } from "./evaluate.ts";

/** What the overview is made of. */
export interface OverviewInput {
  /** The `alerts` option or `--alerts FILE`, validated; null without one. */
  config: AlertsConfig | null;
  /** Rules made through the API, kept in the store. */
  stored: readonly AlertRule[];
  status: AlertStatus;
  silences: readonly AlertSilence[];
  now: number;
  /** `evaluateEvery` without a configuration. */
  defaultEvaluateEveryMs: number;
}

const RANK = { ok: 0, pending: 1, firing: 2 } as const;

/**
 * Whether the evaluation `status` tells of read the rule `name`: none has
 * run, or the board evaluating has not that rule (another file's, or one
 * stored since), and its "ok" would be a guess. States written without the
 * list (boards before it) count every rule as read.
 */
function evaluatedIn(status: AlertStatus, name: string): boolean {
  return status.asOf !== null && (status.evaluated?.includes(name) ?? true);
}

/**
 * One rule with the alerts of it in `status`, each muted or not by
 * `silences` at `now`, and its sinks that `config` lacks.
 */
export function ruleView(
  rule: AlertRule,
  origin: AlertRuleOrigin,
  { config, status, silences, now }: Pick<OverviewInput, "config" | "status" | "silences" | "now">,
): AlertRuleView {
  const alerts = status.states.filter((state) => state.rule === rule.name).map((state) => ({
    subject: state.subject,
    task: state.task,
    phase: state.phase,
    pendingSince: state.pendingSince,
    firingSince: state.firingSince,
    resolvedAt: state.resolvedAt,
    figure: state.figure,
    notifiedAt: state.notifiedAt,
    muted: silenceOf(silences, rule.name, state.task, now) !== null,
  }));
  const firing = alerts.filter((alert) => alert.phase === "firing");
  const worst = alerts.reduce<keyof typeof RANK>(
    (worst, { phase }) => phase !== "resolved" && RANK[phase] > RANK[worst] ? phase : worst,
    "ok",
  );
  return {
    ...rule,
    unit: KIND_THRESHOLDS[rule.kind].unit,
    unknownSinks: rule.sinks.filter((name) => !config?.sinks.some((sink) => sink.name === name)),
    origin,
    state: evaluatedIn(status, rule.name) ? worst : "notEvaluated",
    firingSince: firing.length === 0 ? null : Math.min(...firing.map((a) => a.firingSince!)),
    alerts,
  };
}

/** The answer of `GET /alerts`. */
export function alertsOverview(input: OverviewInput): AlertsOverview {
  const { config, stored, status, silences, now } = input;
  const rules = [
    ...(config?.rules ?? []).map((rule) => ruleView(rule, "code", input)),
    ...stored.map((rule) => ruleView(rule, "stored", input)),
  ];
  const firingAlerts = rules.flatMap((rule) => rule.alerts).filter((a) => a.phase === "firing");
  return {
    enabled: config !== null,
    evaluateEveryMs: config?.evaluateEveryMs ?? input.defaultEvaluateEveryMs,
    asOf: status.asOf,
    firing: firingAlerts.filter((alert) => !alert.muted).length,
    silenced: firingAlerts.filter((alert) => alert.muted).length,
    sinks: (config?.sinks ?? []).map(({ name, type }) => ({ name, type })),
    rules,
    silences: silences.filter((silence) => silence.until > now),
  };
}
