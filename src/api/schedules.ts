/**
 * `GET /schedules`: every schedule with its next run and how its last run went.
 *
 * @module
 */

import { Hono } from "hono";
import type { ApiDeps } from "./deps.ts";

/** Routes under `/schedules`. */
export function scheduleRoutes({ source, present }: ApiDeps): Hono {
  return new Hono().get("/schedules", async (c) => {
    const schedules = await source.listSchedules();
    return c.json(schedules.map((schedule) => ({
      ...schedule,
      config: "data" in schedule.config
        ? { ...schedule.config, data: present.data(schedule.config.data, schedule.config.task) }
        : schedule.config,
    })));
  });
}
