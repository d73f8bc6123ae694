/**
 * Schedules: the list with next run and last-run status, and the actions
 * (pause, resume, trigger now, update, delete).
 *
 * @module
 */

import { Hono } from "hono";
import { parseSchedulePatch, SCHEDULE_PATCH_FIELDS } from "../source/schedule_patch.ts";
import { assertIdempotencyKey } from "../source/trigger_id.ts";
import type {
  ScheduleActionResponse,
  ScheduleRecord,
  ScheduleRemoveResponse,
  TriggerResponse,
} from "../contract/schedules.ts";
import { readJsonObject } from "./body.ts";
import type { ApiDeps } from "./deps.ts";

/** The header a trigger's idempotency key comes in (one per operator click, resent on retry). */
const IDEMPOTENCY_HEADER = "Idempotency-Key";

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
      const body = await readJsonObject(c, SCHEDULE_PATCH_FIELDS, { required: true });
      const patch = parseSchedulePatch(body);
      return c.json(changed(await source.updateSchedule(c.req.param("name"), patch)));
    })
    .delete("/schedules/:name", async (c) => {
      const name = c.req.param("name");
      await source.removeSchedule(name);
      return c.json({ ok: true, name } satisfies ScheduleRemoveResponse);
    });
}
