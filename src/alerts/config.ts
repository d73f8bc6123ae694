/**
 * The alerts JSON (the `alerts` option, `--alerts FILE`) as zod schemas: a
 * bad field is refused naming it (`rules[0].threshold`), never
 * half-accepted. A rule's shape is written once, here: the file's rules,
 * the option's and the bodies of `POST`/`PUT /alerts/rules` are all
 * {@link AlertRuleSchema}.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import type { Same } from "../same.ts";
import {
  ALERT_KINDS,
  type AlertKind,
  type AlertRule,
  type AlertRuleFile,
  type AlertsConfig,
  type AlertsFile,
  type AlertSink,
  type AlertSinkFile,
  KIND_THRESHOLDS,
  STORE_KINDS,
  type ThresholdUnit,
} from "../contract/alerts.ts";
import { closedObject, duration, firstRefusal, must, wholeNumber } from "../config_fields.ts";
import { BoardError } from "../errors.ts";

/** A field of the alerts JSON that is not allowed: a 400 `INVALID_PARAM` naming it. */
export class AlertConfigError extends BoardError {
  /** Names the field (`rules[0].threshold`) and what it must be (`must be a whole number…`). */
  constructor(field: string, requirement: string) {
    super("INVALID_PARAM", `Invalid ${field}: ${requirement}`, { param: field });
    this.name = "AlertConfigError";
  }
}

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const MAX_RULES = 200;
const MAX_SINKS = 20;
const MAX_TASKS = 1000;
const NAME = /^\P{Cc}{1,100}$/u;

/** How often rules are evaluated when `evaluateEvery` is not given. */
export const DEFAULT_EVALUATE_EVERY_MS = 15_000;

const nameWords = must("1 to 100 characters, no control characters or edge spaces");
const Name = z.string({ error: nameWords })
  .refine((name) => NAME.test(name) && name.trim() === name, { error: nameWords });

function alertDuration(min: number, max: number) {
  return duration(
    min,
    max,
    must(`a duration from ${min} ms to ${max} ms, like "30s", "15m", "1h" or ms`),
  ).openapi({ description: 'A duration: "30s", "15m", "1h", "1d" or ms.' });
}

function whole(min: number, max: number) {
  return wholeNumber(min, max, must(`a whole number from ${min} to ${max}`));
}

function listOf<T extends z.ZodType>(item: T, max: number) {
  const error = must(`an array of at most ${max} entries`);
  return z.array(item, { error }).max(max, { error });
}

const httpUrlWords = must("an http: or https: URL");
const HttpUrl = z.string({ error: httpUrlWords }).refine(
  (url) => URL.canParse(url) && /^https?:\/\//.test(url),
  { error: httpUrlWords },
);

/** Refuses a second entry of the same name, by its own path (`sinks[2].name`). */
function uniqueNames(entries: readonly { name: string }[], ctx: z.RefinementCtx): void {
  const seen = new Set<string>();
  entries.forEach(({ name }, i) => {
    if (seen.has(name)) {
      ctx.addIssue({ code: "custom", path: [i, "name"], input: name, message: "must be unique" });
    }
    seen.add(name);
  });
}

const percentWords = must("a percentage from 0 to 100");

/** The limit of a rule, by the unit of its kind's threshold. */
const THRESHOLDS: Record<Exclude<ThresholdUnit, "none">, z.ZodType<number, number | string>> = {
  count: whole(0, Number.MAX_SAFE_INTEGER),
  percent: z.number({ error: percentWords }).min(0, { error: percentWords })
    .max(100, { error: percentWords }),
  duration: alertDuration(1000, 30 * DAY),
};

/** A rule's threshold in its kind's unit (its default when absent), or what it must be. */
function thresholdOf(kind: AlertKind, value: number | string | undefined): number | string {
  const { unit, fallback } = KIND_THRESHOLDS[kind];
  if (value === undefined && fallback !== null) return fallback;
  if (unit === "none") return `must be absent: a ${kind} rule has no threshold`;
  const parsed = THRESHOLDS[unit].safeParse(value);
  return parsed.success ? parsed.data : parsed.error.issues[0].message;
}

const ruleFields = closedObject(
  {
    name: Name.openapi({ description: "Unique among every rule." }),
    kind: z.enum(ALERT_KINDS, { error: must(`one of ${ALERT_KINDS.join(", ")}`) }),
    tasks: listOf(Name, MAX_TASKS).min(1, { error: must("absent or not empty") }).optional()
      .openapi({ description: "Absent: every task." }),
    threshold: z.union([z.number(), z.string()], {
      error: must("a count, a percentage or a duration, by the rule's kind"),
    }).optional().openapi({ description: "A count, a percentage or a duration, by kind." }),
    window: alertDuration(5 * MINUTE, DAY).optional(),
    minFinished: whole(1, 1_000_000).optional(),
    for: alertDuration(0, DAY).default(0),
    repeat: alertDuration(0, 7 * DAY).default(0),
    sinks: listOf(z.string({ error: must("the name of a sink in sinks") }), MAX_SINKS)
      .min(1, { error: must("at least one sink's name") })
      .superRefine((names, ctx) =>
        names.forEach((name, i) => {
          // A sink named twice would be posted every notice twice.
          if (names.indexOf(name) < i) {
            ctx.addIssue({
              code: "custom",
              path: [i],
              input: name,
              message: "must be a sink not named before in sinks",
            });
          }
        })
      ).openapi({ description: "Names of the configured sinks." }),
  },
  must("an object with name, kind, tasks, threshold, window, minFinished, for, repeat, sinks"),
  must("absent"),
);

/**
 * One alert rule as written (`--alerts FILE`'s `rules[]`, the option's, a
 * route's body), resolved: durations in ms, defaults filled in. Whether its
 * sinks exist is asked of the sinks configured ({@link unknownSinkAt}).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { AlertRuleSchema } from "./config.ts";
 * const rule = AlertRuleSchema.parse({ name: "b", kind: "backlog", threshold: 5, for: "1m", sinks: ["ops"] });
 * assert.deepEqual([rule.threshold, rule.forMs, rule.tasks], [5, 60_000, null]);
 * assert.equal(AlertRuleSchema.safeParse({ name: "b", kind: "backlog", sinks: ["ops"] }).success, false);
 * ```
 */
export const AlertRuleSchema = ruleFields.transform((rule, ctx): AlertRule => {
  const { kind } = rule;
  const refuse = (field: keyof typeof rule, message: string) => {
    ctx.issues.push({ code: "custom", path: [field], input: rule[field], message });
    return z.NEVER;
  };
  if (rule.tasks !== undefined && STORE_KINDS.includes(kind)) {
    return refuse("tasks", `must be absent: a ${kind} rule is about the store`);
  }
  for (const field of ["window", "minFinished"] as const) {
    if (kind !== "failureRate" && rule[field] !== undefined) {
      return refuse(field, "must be absent: only failureRate rules take it");
    }
  }
  const threshold = thresholdOf(kind, rule.threshold);
  if (typeof threshold === "string") return refuse("threshold", threshold);
  const rate = kind === "failureRate";
  return {
    name: rule.name,
    kind,
    tasks: rule.tasks ?? null,
    threshold,
    windowMs: rate ? rule.window ?? 15 * MINUTE : null,
    minFinished: rate ? rule.minFinished ?? 20 : null,
    forMs: rule.for,
    repeatMs: rule.repeat,
    sinks: rule.sinks,
  };
}).openapi("AlertRuleFile");
true satisfies Same<z.input<typeof AlertRuleSchema>, AlertRuleFile>;

const secretWords = "a string of 32 to 1024 characters";

/** A sink as written, resolved: its secret null for Slack, its timeout in ms. */
const SinkSchema = closedObject(
  {
    name: Name,
    type: z.enum(["webhook", "slack"], { error: must('"webhook" or "slack"') }),
    url: HttpUrl,
    secret: z.string({ error: must(secretWords) }).min(32, { error: must(secretWords) })
      .max(1024, { error: must(secretWords) }).optional(),
    timeout: alertDuration(1000, MINUTE).default(10_000),
    retries: whole(0, 10).default(3),
  },
  must("an object with name, type, url, secret, timeout, retries"),
  must("absent"),
).transform(
  (sink, ctx): AlertSink => {
    const signed = sink.type === "webhook";
    if (signed === (sink.secret === undefined)) {
      ctx.issues.push({
        code: "custom",
        path: ["secret"],
        input: undefined,
        message: signed
          ? `must be ${secretWords}`
          : "must be absent: a Slack webhook is not signed",
      });
      return z.NEVER;
    }
    const { name, type, url, timeout, retries } = sink;
    return { name, type, url, secret: sink.secret ?? null, timeoutMs: timeout, retries };
  },
);
true satisfies Same<z.input<typeof SinkSchema>, AlertSinkFile>;

/** What a rule's sink the configuration lacks must be. */
export const KNOWN_SINK = "must be the name of a sink in sinks";

/**
 * The index of the first of a rule's `sinks` the configured `sinks` lack,
 * or -1: a rule tells only sinks of the configuration.
 */
export function unknownSinkAt(names: readonly string[], sinks: readonly AlertSink[]): number {
  return names.findIndex((name) => !sinks.some((sink) => sink.name === name));
}

/**
 * The alerts JSON, resolved to {@link AlertsConfig}: durations in ms,
 * defaults filled in, each rule's sinks among the file's.
 */
export const AlertsFileSchema = closedObject(
  {
    evaluateEvery: alertDuration(5000, MINUTE / 2).default(DEFAULT_EVALUATE_EVERY_MS),
    boardUrl: HttpUrl.optional(),
    sinks: listOf(SinkSchema, MAX_SINKS).superRefine(uniqueNames).default([]),
    rules: listOf(AlertRuleSchema, MAX_RULES).superRefine(uniqueNames).default([]),
  },
  must("an object with evaluateEvery, boardUrl, sinks, rules"),
  must("absent"),
).transform(
  (file, ctx): AlertsConfig => {
    file.rules.forEach((rule, i) => {
      const at = unknownSinkAt(rule.sinks, file.sinks);
      if (at >= 0) {
        ctx.issues.push({
          code: "custom",
          path: ["rules", i, "sinks", at],
          input: rule.sinks[at],
          message: KNOWN_SINK,
        });
      }
    });
    return {
      evaluateEveryMs: file.evaluateEvery,
      boardUrl: file.boardUrl?.replace(/\/+$/, "") ?? null,
      sinks: file.sinks,
      rules: file.rules,
    };
  },
);
true satisfies Same<z.input<typeof AlertsFileSchema>, AlertsFile>;

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
  const parsed = AlertsFileSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const { field, message } = firstRefusal(parsed.error);
  throw new AlertConfigError(field || "alerts", message);
}
