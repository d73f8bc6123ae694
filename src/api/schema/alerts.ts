/**
 * Answers of the alerts routes: the rules with their state, the sinks by
 * name (never a URL or secret), the silences and the history of notices.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import {
  ALERT_KINDS,
  type AlertHistoryResponse,
  type AlertRemoved,
  type AlertRuleView,
  type AlertSilence,
  type AlertsOverview,
  type TestNoticeResponse,
} from "../../contract/alerts.ts";
import { Millis } from "./common.ts";
import type { Same } from "../../same.ts";

const UnitSchema = z.enum(["count", "percent", "duration", "none"]);

/** A silence: what it mutes, until when, who set it and why. */
export const AlertSilenceSchema = z.strictObject({
  id: z.string(),
  scope: z.union([
    z.strictObject({ rule: z.string() }),
    z.strictObject({ task: z.string() }),
    z.literal("all"),
  ]),
  until: Millis,
  author: z.string(),
  reason: z.string(),
  createdAt: Millis,
}).openapi("AlertSilence");
true satisfies Same<z.output<typeof AlertSilenceSchema>, AlertSilence>;

/** A rule with where it stands. */
export const AlertRuleViewSchema = z.strictObject({
  name: z.string(),
  kind: z.enum(ALERT_KINDS),
  tasks: z.array(z.string()).nullable().openapi({ description: "null: every task." }),
  threshold: z.number(),
  unit: UnitSchema,
  windowMs: z.number().int().nullable(),
  minFinished: z.number().int().nullable(),
  forMs: z.number().int(),
  repeatMs: z.number().int(),
  sinks: z.array(z.string()),
  unknownSinks: z.array(z.string()).openapi({
    description:
      "Its sinks the alerts configuration no longer has: its notices reach none of them.",
  }),
  origin: z.enum(["code", "stored"]).openapi({
    description:
      "code: the alerts option or --alerts FILE, read-only; stored: made through the API.",
  }),
  state: z.enum(["ok", "pending", "firing", "notEvaluated"]).openapi({
    description:
      "The worst of its alerts; notEvaluated: the last evaluation did not read the rule " +
      "(none yet, or the rules of the board evaluating lack it).",
  }),
  firingSince: Millis.nullable(),
  alerts: z.array(z.strictObject({
    subject: z.string().nullable(),
    task: z.string().nullable(),
    phase: z.enum(["pending", "firing", "resolved"]),
    pendingSince: Millis,
    firingSince: Millis.nullable(),
    resolvedAt: Millis.nullable(),
    figure: z.number().nullable(),
    notifiedAt: Millis.nullable(),
    muted: z.boolean().openapi({ description: "Whether a silence mutes it now." }),
  })),
}).openapi("AlertRuleView");
true satisfies Same<z.output<typeof AlertRuleViewSchema>, AlertRuleView>;

/** `GET /alerts`. */
export const AlertsOverviewSchema = z.strictObject({
  enabled: z.boolean().openapi({
    description: "Whether the alerts option or --alerts FILE was given.",
  }),
  evaluateEveryMs: z.number().int(),
  asOf: Millis.nullable().openapi({ description: "The last evaluation, by whichever board led." }),
  firing: z.number().int().openapi({ description: "Alerts firing that no silence mutes." }),
  silenced: z.number().int().openapi({
    description: "Alerts firing that a silence mutes now, apart from firing.",
  }),
  sinks: z.array(z.strictObject({ name: z.string(), type: z.enum(["webhook", "slack"]) })),
  rules: z.array(AlertRuleViewSchema),
  silences: z.array(AlertSilenceSchema),
}).openapi("AlertsOverview");
true satisfies Same<z.output<typeof AlertsOverviewSchema>, AlertsOverview>;

/** A notice as a sink receives it, but for a grouped notice's own fields. */
const NoticeSchema = z.strictObject({
  rule: z.string(),
  kind: z.enum([...ALERT_KINDS, "test"]),
  state: z.enum(["firing", "resolved"]),
  key: z.string(),
  task: z.string().nullable(),
  schedule: z.string().optional(),
  figure: z.number().nullable(),
  threshold: z.number(),
  unit: UnitSchema,
  since: Millis,
  at: Millis,
  repeat: z.boolean(),
  link: z.string(),
  summary: z.string(),
  test: z.literal(true).optional(),
});

/** One alert of a grouped notice: what a notice of it alone would say of it. */
const GroupedAlertSchema = NoticeSchema.pick({
  key: true,
  state: true,
  task: true,
  schedule: true,
  figure: true,
  since: true,
  repeat: true,
  link: true,
  summary: true,
});

/** `GET /alerts/history`. */
export const AlertHistorySchema = z.strictObject({
  entries: z.array(z.strictObject({
    notice: NoticeSchema.extend({
      alerts: z.array(GroupedAlertSchema).optional().openapi({
        description: "A grouped notice (a rule's alerts of one pass): the first 20, firing first.",
      }),
      count: z.number().int().optional().openapi({
        description: "A grouped notice: how many alerts it tells of in all.",
      }),
    }),
    deliveries: z.array(z.strictObject({
      sink: z.string(),
      outcome: z.enum(["delivered", "failed"]),
      attempts: z.number().int(),
      error: z.string().nullable(),
    })),
    silencedBy: z.string().nullable(),
  })),
}).openapi("AlertHistory");
true satisfies Same<z.output<typeof AlertHistorySchema>, AlertHistoryResponse>;

/** `{ removed: true }`: what a delete answers. */
export const AlertRemovedSchema = z.strictObject({ removed: z.literal(true) }).openapi(
  "AlertRemoved",
);
true satisfies Same<z.output<typeof AlertRemovedSchema>, AlertRemoved>;

/** `POST /alerts/silences`: what to mute, until when (or for how long), and why. */
export const SilenceRequestSchema = z.strictObject({
  scope: z.union([
    z.strictObject({ rule: z.string().min(1).max(100) }),
    z.strictObject({ task: z.string().min(1).max(256) }),
    z.literal("all"),
  ], { error: 'must be { rule }, { task } or "all"' }),
  until: Millis.optional().openapi({ description: "When it ends (ms since the epoch)." }),
  duration: z.string().optional().openapi({
    description: 'Or how long from now: "30m", "2h", "1d" (at most 30 days).',
  }),
  reason: z.string().trim().min(1, { error: "must not be empty" }).max(500, {
    error: "must be at most 500 characters",
  }),
}).openapi("SilenceRequest");

/** `POST /alerts/test`. */
export const TestNoticeSchema = z.strictObject({
  sink: z.string(),
  outcome: z.enum(["delivered", "failed"]),
  reason: z.string().optional().openapi({ description: "Why the last attempt failed." }),
  attempts: z.number().int(),
}).openapi("TestNotice");
true satisfies Same<z.output<typeof TestNoticeSchema>, TestNoticeResponse>;
