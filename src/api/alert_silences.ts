/**
 * Silences (`alerts.update`): `POST /alerts/silences` mutes one rule, one
 * task or everything until a time, with its author (who is signed in) and a
 * reason; `DELETE /alerts/silences/{id}` ends one early. They are kept in the
 * store, so the leader obeys them wherever it runs.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import type { UserEnv } from "../auth/user.ts";
import { ANONYMOUS } from "../auth/user.ts";
import { type AlertSilence, MAX_SILENCES } from "../contract/alerts.ts";
import { parseDuration } from "../duration.ts";
import { BoardError, invalidParam } from "../errors.ts";
import { epochClock } from "../timers.ts";
import { alertsConfigOf } from "../alerts/settings.ts";
import { jsonBody } from "./schema/body.ts";
import type { ApiDeps } from "./deps.ts";
import { apiRoute, apiRouter } from "./openapi.ts";
import { AlertRemovedSchema, AlertSilenceSchema, SilenceRequestSchema } from "./schema/alerts.ts";

const tags = ["alerts"];

/** The longest a silence may last. */
const MAX_SILENCE_MS = 30 * 24 * 3_600_000;

const addSilence = apiRoute({
  method: "post",
  path: "/alerts/silences",
  audit: { action: "alerts.update", target: "silences" },
  tags,
  summary: "Mute a rule, a task or everything until a time",
  request: { body: jsonBody(SilenceRequestSchema, { required: true }) },
  ok: AlertSilenceSchema,
  okStatus: 201,
  errors: ["CONFLICT"],
});

const removeSilence = apiRoute({
  method: "delete",
  path: "/alerts/silences/{id}",
  audit: { action: "alerts.update", target: "{id}" },
  tags,
  summary: "End a silence",
  request: { params: z.object({ id: z.string().max(100) }) },
  ok: AlertRemovedSchema,
  errors: ["CONFLICT", "NOT_FOUND"],
});

/** When a silence asked for at `now` ends: `until`, or `duration` from now, within 30 days. */
function endOf(until: number | undefined, duration: string | undefined, now: number): number {
  if ((until === undefined) === (duration === undefined)) {
    throw invalidParam("until", "give until (ms since the epoch) or duration, one of them");
  }
  if (duration !== undefined) {
    const ms = parseDuration(duration);
    if (ms === null || ms <= 0 || ms > MAX_SILENCE_MS) {
      throw invalidParam("duration", 'must be a duration up to 30 days, like "30m", "2h", "1d"');
    }
    return now + ms;
  }
  if (until! <= now || until! > now + MAX_SILENCE_MS) {
    throw invalidParam("until", "must be a time within the next 30 days (ms since the epoch)");
  }
  return until!;
}

/** Routes under `/alerts/silences`. */
export function alertSilenceRoutes({ store, options, timers }: ApiDeps) {
  return apiRouter<UserEnv>()
    .openapi(addSilence, async (c) => {
      const config = alertsConfigOf(options);
      const { scope, until, duration, reason } = c.req.valid("json");
      const now = epochClock(timers)();
      if (typeof scope === "object" && "rule" in scope) {
        const stored = await store.listAlertRules();
        if (![...config.rules, ...stored].some((rule) => rule.name === scope.rule)) {
          throw invalidParam("scope.rule", `no alert rule is named "${scope.rule}"`);
        }
      }
      const silence: AlertSilence = {
        id: crypto.randomUUID(),
        scope,
        until: endOf(until, duration, now),
        author: c.get("user") ?? ANONYMOUS,
        reason,
        createdAt: now,
      };
      if (!await store.addAlertSilence(silence, now, MAX_SILENCES)) {
        throw new BoardError("CONFLICT", `At most ${MAX_SILENCES} silences are in force: end one`);
      }
      return c.json(silence, 201);
    })
    .openapi(removeSilence, async (c) => {
      alertsConfigOf(options);
      const { id } = c.req.valid("param");
      if (!await store.removeAlertSilence(id)) {
        throw new BoardError("NOT_FOUND", `No silence has the id "${id}"`);
      }
      return c.json({ removed: true as const }, 200);
    });
}
