/**
 * One job, found across every task: `GET /jobs/{id}` in full (with its
 * newest logs), `GET /jobs/{id}/logs` paging its whole log, and its `retry`
 * and `cancel` actions.
 *
 * @module
 */

import { Hono } from "hono";
import { invalidParam } from "../errors.ts";
import { optionalString, readJsonObject } from "./body.ts";
import type { ApiDeps } from "./deps.ts";
import { jobNotFound } from "../source/refusals.ts";
import { JOB_DETAIL_LOGS } from "../source/types.ts";
import { pageParams } from "./params.ts";

/** Longest job id accepted; taskora's are UUIDs, custom ids stay well below. */
export const MAX_JOB_ID_LENGTH = 256;

/** Checks a job id from the path. */
export function jobIdParam(raw: string): string {
  if (raw.length === 0 || raw.length > MAX_JOB_ID_LENGTH) {
    throw invalidParam("jobId", `must be 1 to ${MAX_JOB_ID_LENGTH} characters`);
  }
  return raw;
}

/** Routes under `/jobs`. */
export function jobRoutes({ source, present }: ApiDeps): Hono {
  return new Hono()
    .get("/jobs/:jobId", async (c) => {
      const jobId = jobIdParam(c.req.param("jobId"));
      const job = await source.getJob(jobId);
      if (!job) throw jobNotFound(jobId);
      return c.json(present.jobDetail(job));
    })
    .get("/jobs/:jobId/logs", async (c) => {
      const jobId = jobIdParam(c.req.param("jobId"));
      const { limit, offset } = pageParams((name) => c.req.query(name), JOB_DETAIL_LOGS);
      const page = await source.getJobLogs(jobId, offset, limit);
      if (!page) throw jobNotFound(jobId);
      c.header("X-Total-Count", String(page.total));
      return c.json(present.logs(page.logs));
    })
    .post("/jobs/:jobId/retry", async (c) => {
      const jobId = jobIdParam(c.req.param("jobId"));
      await readJsonObject(c, []);
      return c.json({ ok: true, ...await source.retryJob(jobId) });
    })
    .post("/jobs/:jobId/cancel", async (c) => {
      const jobId = jobIdParam(c.req.param("jobId"));
      const reason = optionalString(await readJsonObject(c, ["reason"]), "reason");
      return c.json({ ok: true, ...await source.cancelJob(jobId, reason) });
    });
}
