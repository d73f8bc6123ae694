/**
 * Alert rules made through the API (`alerts.update`): `POST /alerts/rules`
 * (201), `PUT /alerts/rules/{name}`, `DELETE /alerts/rules/{name}`. They are
 * kept in the store, so the leader evaluates them wherever it runs. A rule
 * is the file's (`AlertRuleSchema`), its sinks among the configured ones; the
 * rules declared in code (the option, `--alerts FILE`) are read-only (409
 * `CONFLICT`).
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import { AlertRuleSchema, KNOWN_SINK, unknownSinkAt } from "../alerts/config.ts";
import { ruleView } from "../alerts/overview.ts";
import {
  type AlertRule,
  type AlertsConfig,
  MAX_STORED_RULES,
  type RuleSaveOutcome,
} from "../contract/alerts.ts";
import { BoardError, invalidParam } from "../errors.ts";
import { epochClock } from "../timers.ts";
import { alertsConfigOf } from "../alerts/settings.ts";
import type { AlertStore } from "../store/alerts.ts";
import { jsonBody } from "./schema/body.ts";
import type { ApiDeps } from "./deps.ts";
import { apiRoute, apiRouter } from "./openapi.ts";
import { AlertRemovedSchema, AlertRuleViewSchema } from "./schema/alerts.ts";

const tags = ["alerts"];
const NamePath = z.object({ name: z.string().openapi({ description: "A stored rule's name" }) });
const body = jsonBody(AlertRuleSchema, { required: true });

const createRule = apiRoute({
  method: "post",
  path: "/alerts/rules",
  audit: { action: "alerts.update", target: "rules", named: "name" },
  tags,
  summary: "Store a new alert rule (the file format); the leader evaluates it from its next pass",
  request: { body },
  ok: AlertRuleViewSchema,
  okStatus: 201,
  errors: ["CONFLICT"],
});

const replaceRule = apiRoute({
  method: "put",
  path: "/alerts/rules/{name}",
  audit: { action: "alerts.update", target: "{name}" },
  tags,
  summary: "Replace a stored alert rule (its name stays)",
  request: { params: NamePath, body },
  ok: AlertRuleViewSchema,
  errors: ["CONFLICT", "NOT_FOUND"],
});

const removeRule = apiRoute({
  method: "delete",
  path: "/alerts/rules/{name}",
  audit: { action: "alerts.update", target: "{name}" },
  tags,
  summary: "Remove a stored alert rule",
  request: { params: NamePath },
  ok: AlertRemovedSchema,
  errors: ["CONFLICT", "NOT_FOUND"],
});

function refuseCodeRule(config: AlertsConfig, name: string): void {
  if (config.rules.some((rule) => rule.name === name)) {
    throw new BoardError(
      "CONFLICT",
      `The alert rule "${name}" is declared in code (the alerts option or --alerts FILE): ` +
        "it is read-only here",
    );
  }
}

const REFUSED: Record<Exclude<RuleSaveOutcome, "saved">, (name: string) => BoardError> = {
  exists: (name) => new BoardError("CONFLICT", `A stored alert rule is named "${name}" already`),
  missing: (name) => new BoardError("NOT_FOUND", `No stored alert rule is named "${name}"`),
  full: () =>
    new BoardError("CONFLICT", `At most ${MAX_STORED_RULES} alert rules are stored: remove one`),
};

/** Routes under `/alerts/rules`. */
export function alertRuleRoutes({ store, options, timers }: ApiDeps) {
  async function save(rule: AlertRule, mode: "create" | "replace", named?: string) {
    const config = alertsConfigOf(options);
    const unknownSink = unknownSinkAt(rule.sinks, config.sinks);
    if (unknownSink >= 0) throw invalidParam(`sinks[${unknownSink}]`, KNOWN_SINK);
    if (named !== undefined && rule.name !== named) {
      throw invalidParam("name", `must be the rule's name in the path ("${named}")`);
    }
    refuseCodeRule(config, rule.name);
    const outcome = await store.saveAlertRule(rule, mode, MAX_STORED_RULES);
    if (outcome !== "saved") throw REFUSED[outcome](rule.name);
    return await viewOf(store, config, rule, epochClock(timers)());
  }

  return apiRouter()
    .openapi(createRule, async (c) => c.json(await save(c.req.valid("json"), "create"), 201))
    .openapi(replaceRule, async (c) => {
      const { name } = c.req.valid("param");
      return c.json(await save(c.req.valid("json"), "replace", name), 200);
    })
    .openapi(removeRule, async (c) => {
      const { name } = c.req.valid("param");
      const config = alertsConfigOf(options);
      refuseCodeRule(config, name);
      if (!await store.removeAlertRule(name)) throw REFUSED.missing(name);
      return c.json({ removed: true as const }, 200);
    });
}

/** The stored rule with what the last evaluation left of it. */
async function viewOf(store: AlertStore, config: AlertsConfig, rule: AlertRule, now: number) {
  const [status, silences] = await Promise.all([
    store.readAlertStatus(),
    store.listAlertSilences(),
  ]);
  return ruleView(rule, "stored", { config, status, silences, now });
}
