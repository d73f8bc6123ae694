/**
 * Validation of the alerts JSON (the `alerts` option, `--alerts FILE`): a
 * bad field is refused with a 400 `INVALID_PARAM` naming it
 * (`rules[0].threshold`), never half-accepted.
 *
 * @module
 */

import {
  ALERT_KINDS,
  type AlertKind,
  type AlertRule,
  type AlertsConfig,
  type AlertSink,
  KIND_THRESHOLDS,
  STORE_KINDS,
} from "../contract/alerts.ts";
import { parseDuration } from "../duration.ts";
import { BoardError } from "../errors.ts";

/** A field of the alerts JSON that is not allowed: a 400 `INVALID_PARAM` naming it. */
export class AlertConfigError extends BoardError {
  /** What the field allows, in words. */
  readonly allowed: string;

  /** Names the field (`rules[0].threshold`) and what it allows. */
  constructor(field: string, allowed: string) {
    super("INVALID_PARAM", `Invalid ${field}: must be ${allowed}`, { param: field });
    this.name = "AlertConfigError";
    this.allowed = allowed;
  }
}

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const MAX_RULES = 200;
const MAX_SINKS = 20;
const MAX_TASKS = 1000;
const NAME = /^\P{Cc}{1,100}$/u;

const FILE_KEYS = ["evaluateEvery", "boardUrl", "sinks", "rules"];
const SINK_KEYS = ["name", "type", "url", "secret", "timeout", "retries"];
const RULE_KEYS = [
  "name",
  "kind",
  "tasks",
  "threshold",
  "window",
  "minFinished",
  "for",
  "repeat",
  "sinks",
];

type Fields = Record<string, unknown>;

function objectAt(field: string, value: unknown, keys: readonly string[]): Fields {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new AlertConfigError(field || "alerts", `an object with ${keys.join(", ")}`);
  }
  const unknown = Object.keys(value).find((key) => !keys.includes(key));
  if (unknown !== undefined) {
    throw new AlertConfigError(`${field ? `${field}.` : ""}${unknown}`, "absent");
  }
  return value as Fields;
}

function arrayAt(field: string, value: unknown, max: number): unknown[] {
  if (!Array.isArray(value) || value.length > max) {
    throw new AlertConfigError(field, `an array of at most ${max} entries`);
  }
  return value;
}

function nameAt(field: string, value: unknown): string {
  if (typeof value !== "string" || !NAME.test(value) || value.trim() !== value) {
    throw new AlertConfigError(field, "1 to 100 characters, no control characters or edge spaces");
  }
  return value;
}

/** A duration from `min` to `max` ms, or `fallback` when absent. */
function durationAt(field: string, value: unknown, fallback: number, min: number, max: number) {
  const ms = value === undefined ? fallback : parseDuration(value);
  if (ms === null || ms < min || ms > max) {
    throw new AlertConfigError(
      field,
      `a duration from ${min} ms to ${max} ms, like "30s", "15m", "1h" or ms`,
    );
  }
  return ms;
}

function wholeAt(field: string, value: unknown, fallback: number, min: number, max: number) {
  const n = value ?? fallback;
  if (typeof n !== "number" || !Number.isInteger(n) || n < min || n > max) {
    throw new AlertConfigError(field, `a whole number from ${min} to ${max}`);
  }
  return n;
}

function uniqueNames(field: string, entries: { name: string }[]): void {
  const seen = new Set<string>();
  entries.forEach(({ name }, i) => {
    if (seen.has(name)) throw new AlertConfigError(`${field}[${i}].name`, "unique");
    seen.add(name);
  });
}

function isHttpUrl(value: unknown): value is string {
  return typeof value === "string" && URL.canParse(value) && /^https?:\/\//.test(value);
}

function sinkAt(field: string, value: unknown): AlertSink {
  const sink = objectAt(field, value, SINK_KEYS);
  const name = nameAt(`${field}.name`, sink.name);
  if (sink.type !== "webhook" && sink.type !== "slack") {
    throw new AlertConfigError(`${field}.type`, '"webhook" or "slack"');
  }
  if (!isHttpUrl(sink.url)) throw new AlertConfigError(`${field}.url`, "an http: or https: URL");
  let secret: string | null = null;
  if (sink.type === "webhook") {
    if (typeof sink.secret !== "string" || sink.secret.length < 32 || sink.secret.length > 1024) {
      throw new AlertConfigError(`${field}.secret`, "a string of 32 to 1024 characters");
    }
    secret = sink.secret;
  } else if (sink.secret !== undefined) {
    throw new AlertConfigError(`${field}.secret`, "absent: a Slack webhook is not signed");
  }
  return {
    name,
    type: sink.type,
    url: sink.url,
    secret,
    timeoutMs: durationAt(`${field}.timeout`, sink.timeout, 10_000, 1000, MINUTE),
    retries: wholeAt(`${field}.retries`, sink.retries, 3, 0, 10),
  };
}

/** The threshold of a rule of `kind`, in the kind's unit. */
function thresholdAt(field: string, kind: AlertKind, value: unknown): number {
  const { unit, fallback } = KIND_THRESHOLDS[kind];
  if (value === undefined && fallback !== null) return fallback;
  switch (unit) {
    case "count":
      return wholeAt(field, value ?? NaN, 0, 0, Number.MAX_SAFE_INTEGER);
    case "percent":
      if (typeof value !== "number" || !(value >= 0 && value <= 100)) {
        throw new AlertConfigError(field, "a percentage from 0 to 100");
      }
      return value;
    case "duration":
      return durationAt(field, value ?? NaN, 0, 1000, 30 * DAY);
    case "none":
      throw new AlertConfigError(field, `absent: a ${kind} rule has no threshold`);
  }
}

function ruleAt(field: string, value: unknown, sinks: readonly AlertSink[]): AlertRule {
  const rule = objectAt(field, value, RULE_KEYS);
  // A rule alone (a route's body) names its fields bare: `threshold`, `sinks[0]`.
  const at = field ? `${field}.` : "";
  const name = nameAt(`${at}name`, rule.name);
  const kind = rule.kind as AlertKind;
  if (!ALERT_KINDS.includes(kind)) {
    throw new AlertConfigError(`${at}kind`, `one of ${ALERT_KINDS.join(", ")}`);
  }
  let tasks: string[] | null = null;
  if (rule.tasks !== undefined) {
    if (STORE_KINDS.includes(kind)) {
      throw new AlertConfigError(`${at}tasks`, `absent: a ${kind} rule is about the store`);
    }
    tasks = arrayAt(`${at}tasks`, rule.tasks, MAX_TASKS).map((task, i) =>
      nameAt(`${at}tasks[${i}]`, task)
    );
    if (tasks.length === 0) throw new AlertConfigError(`${at}tasks`, "absent or not empty");
  }
  const rateOnly = (key: "window" | "minFinished") => {
    if (kind !== "failureRate" && rule[key] !== undefined) {
      throw new AlertConfigError(`${at}${key}`, "absent: only failureRate rules take it");
    }
    return kind === "failureRate";
  };
  const names = arrayAt(`${at}sinks`, rule.sinks, MAX_SINKS);
  if (names.length === 0) throw new AlertConfigError(`${at}sinks`, "at least one sink's name");
  names.forEach((sink, i) => {
    if (!sinks.some((s) => s.name === sink)) {
      throw new AlertConfigError(`${at}sinks[${i}]`, "the name of a sink in sinks");
    }
    // A sink named twice would be posted every notice twice.
    if (names.indexOf(sink) < i) {
      throw new AlertConfigError(`${at}sinks[${i}]`, "a sink not named before in sinks");
    }
  });
  return {
    name,
    kind,
    tasks,
    threshold: thresholdAt(`${at}threshold`, kind, rule.threshold),
    windowMs: rateOnly("window")
      ? durationAt(`${at}window`, rule.window, 15 * MINUTE, 5 * MINUTE, DAY)
      : null,
    minFinished: rateOnly("minFinished")
      ? wholeAt(`${at}minFinished`, rule.minFinished, 20, 1, 1_000_000)
      : null,
    forMs: durationAt(`${at}for`, rule.for, 0, 0, DAY),
    repeatMs: durationAt(`${at}repeat`, rule.repeat, 0, 0, 7 * DAY),
    sinks: names as string[],
  };
}

/** How often rules are evaluated when `evaluateEvery` is not given. */
export const DEFAULT_EVALUATE_EVERY_MS = 15_000;

/**
 * Validates the alerts JSON and resolves it: durations in ms, defaults
 * filled in. Throws {@link AlertConfigError} naming the first bad field.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseAlertsConfig } from "./config.ts";
 * const config = parseAlertsConfig({
 *   sinks: [{ name: "chat", type: "slack", url: "https://hooks.slack.com/services/T/B/x" }],
 *   rules: [{ name: "backlog", kind: "backlog", threshold: 1000, for: "5m", sinks: ["chat"] }],
 * });
 * assert.equal(config.rules[0].forMs, 300_000);
 * assert.throws(() => parseAlertsConfig({ rules: [{ name: "x", kind: "backlog", sinks: [] }] }));
 * ```
 */
export function parseAlertsConfig(value: unknown): AlertsConfig {
  const file = objectAt("", value, FILE_KEYS);
  const sinks = arrayAt("sinks", file.sinks ?? [], MAX_SINKS).map((sink, i) =>
    sinkAt(`sinks[${i}]`, sink)
  );
  uniqueNames("sinks", sinks);
  const rules = arrayAt("rules", file.rules ?? [], MAX_RULES).map((rule, i) =>
    ruleAt(`rules[${i}]`, rule, sinks)
  );
  uniqueNames("rules", rules);
  if (file.boardUrl !== undefined && !isHttpUrl(file.boardUrl)) {
    throw new AlertConfigError("boardUrl", "an http: or https: URL");
  }
  return {
    evaluateEveryMs: durationAt(
      "evaluateEvery",
      file.evaluateEvery,
      DEFAULT_EVALUATE_EVERY_MS,
      5000,
      MINUTE / 2,
    ),
    boardUrl: file.boardUrl?.replace(/\/+$/, "") ?? null,
    sinks,
    rules,
  };
}

/**
 * Validates one rule in the file format (a route's body), as
 * {@link parseAlertsConfig} does each of its rules: the fields are named
 * bare (`threshold`, `sinks[0]`), and its sinks must be among `sinks`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseAlertRule } from "./config.ts";
 * const sinks = [{ name: "ops", type: "slack" as const, url: "https://hooks.slack.com/x", secret: null, timeoutMs: 10_000, retries: 3 }];
 * assert.equal(parseAlertRule({ name: "b", kind: "backlog", threshold: 5, sinks: ["ops"] }, sinks).threshold, 5);
 * assert.throws(() => parseAlertRule({ name: "b", kind: "backlog", threshold: 5, sinks: ["pager"] }, sinks), /sinks\[0\]/);
 * ```
 */
export function parseAlertRule(value: unknown, sinks: readonly AlertSink[]): AlertRule {
  return ruleAt("", value, sinks);
}
