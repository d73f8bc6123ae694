/**
 * Schedules: the list with next run and last-run status, and the actions
 * (pause, resume, trigger now, update, delete).
 *
 * @module
 */

import { Hono } from "hono";
import { parseDuration } from "../duration.ts";
import { invalidParam } from "../errors.ts";
import { assertValidCron } from "../source/schedule_time.ts";
import { assertIdempotencyKey } from "../source/trigger_id.ts";
import type {
  ScheduleActionResponse,
  ScheduleRecord,
  ScheduleRemoveResponse,
  TriggerResponse,
} from "../contract/schedules.ts";
import type { SchedulePatch } from "../source/types.ts";
import { type JsonObject, optionalString, readJsonObject } from "./body.ts";
import type { ApiDeps } from "./deps.ts";

/** The header a trigger's idempotency key comes in (one per operator click, resent on retry). */
const IDEMPOTENCY_HEADER = "Idempotency-Key";

const PATCH_FIELDS = ["cron", "every", "timezone", "data", "onMissed", "overlap"] as const;
const MISSED_POLICY = /^(skip|catch-up|catch-up-limit:\d+)$/;

/** Validates a `PUT /schedules/{name}` body into a patch. */
export function schedulePatch(body: JsonObject): SchedulePatch {
  if (Object.keys(body).length === 0) {
    throw invalidParam("body", `nothing to change (fields: ${PATCH_FIELDS.join(", ")})`);
  }
  if (body.cron !== undefined && body.every !== undefined) {
    throw invalidParam("cron", "cron and every are exclusive: send one");
  }
  const patch: SchedulePatch = {};
  const cron = optionalString(body, "cron", 200);
  if (cron !== undefined) patch.cron = cron;
  if (body.every !== undefined) {
    const every = parseDuration(body.every);
    if (every === null || every < 1000) {
      throw invalidParam(
        "every",
        `must be at least 1000 ms, as ms or a duration like "30s", "5m", "2h", "1d" (got ${
          JSON.stringify(body.every)
        })`,
      );
    }
    patch.every = every;
  }
  if (body.timezone !== undefined) {
    if (body.timezone !== null && typeof body.timezone !== "string") {
      throw invalidParam("timezone", "must be an IANA time zone name or null");
    }
    patch.timezone = body.timezone;
  }
  if (patch.cron !== undefined || typeof patch.timezone === "string") {
    assertValidCron(patch.cron ?? "* * * * *", patch.timezone ?? undefined);
  }
  if ("data" in body) patch.data = body.data;
  const onMissed = optionalString(body, "onMissed", 100);
  if (onMissed !== undefined) {
    if (!MISSED_POLICY.test(onMissed)) {
      throw invalidParam(
        "onMissed",
        `must be skip, catch-up or catch-up-limit:N (got "${onMissed}")`,
      );
    }
    patch.onMissed = onMissed;
  }
  if (body.overlap !== undefined) {
    if (typeof body.overlap !== "boolean") throw invalidParam("overlap", "must be a boolean");
    patch.overlap = body.overlap;
  }
  return patch;
}

/** Routes under `/schedules`. */
export function scheduleRoutes({ source, present }: ApiDeps): Hono {
  const changed = (schedule: ScheduleRecord): ScheduleActionResponse => ({
    ok: true,
    schedule: present.schedule(schedule),
  });
  return new Hono()
    .get("/schedules", async (c) => {
      const schedules = await source.listSchedules();
      return c.json(schedules.map(present.schedule));
    })
    .post("/schedules/:name/pause", async (c) => {
      await readJsonObject(c, []);
      return c.json(changed(await source.pauseSchedule(c.req.param("name"))));
    })
    .post("/schedules/:name/resume", async (c) => {
      await readJsonObject(c, []);
      return c.json(changed(await source.resumeSchedule(c.req.param("name"))));
    })
    .post("/schedules/:name/trigger", async (c) => {
      await readJsonObject(c, []);
      const key = c.req.header(IDEMPOTENCY_HEADER);
      if (key !== undefined) assertIdempotencyKey(key, IDEMPOTENCY_HEADER);
      const triggered = await source.triggerSchedule(c.req.param("name"), key);
      return c.json({ ok: true, ...triggered } satisfies TriggerResponse);
    })
    .put("/schedules/:name", async (c) => {
      const patch = schedulePatch(await readJsonObject(c, PATCH_FIELDS, { required: true }));
      return c.json(changed(await source.updateSchedule(c.req.param("name"), patch)));
    })
    .delete("/schedules/:name", async (c) => {
      const name = c.req.param("name");
      await source.removeSchedule(name);
      return c.json({ ok: true, name } satisfies ScheduleRemoveResponse);
    });
}
