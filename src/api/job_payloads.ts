/**
 * A job's payloads whole, on demand: `GET /jobs/{id}/payloads/{field}`
 * (`data`, `result`, `error` or `progress`), formatted and redacted as on the
 * job page, as JSON; with `?download` as an attachment. And its attempt
 * history, `GET /jobs/{id}/attempts`. Both read only, whole job ids only.
 *
 * @module
 */

import { Hono } from "hono";
import type { AttemptHistory } from "../contract/attempts.ts";
import { PAYLOAD_FIELDS, type PayloadField } from "../contract/payload.ts";
import { invalidParam } from "../errors.ts";
import { jobNotFound } from "../source/refusals.ts";
import type { ApiDeps } from "./deps.ts";
import { jobIdParam } from "./jobs.ts";

function fieldParam(raw: string): PayloadField {
  if (!(PAYLOAD_FIELDS as readonly string[]).includes(raw)) {
    throw invalidParam("field", `must be one of ${PAYLOAD_FIELDS.join(", ")} (got "${raw}")`);
  }
  return raw as PayloadField;
}

/** A file name from a job id: characters a file system and a header both take. */
const fileName = (jobId: string, field: string) =>
  `${jobId.replace(/[^A-Za-z0-9._-]/g, "_")}-${field}.json`;

/** Routes under `/jobs/{id}/payloads` and `/jobs/{id}/attempts`. */
export function jobPayloadRoutes({ source, present }: ApiDeps): Hono {
  return new Hono()
    .get("/jobs/:jobId/payloads/:field", async (c) => {
      const jobId = jobIdParam(c.req.param("jobId"));
      const field = fieldParam(c.req.param("field"));
      const job = await source.getJob(jobId);
      if (!job) throw jobNotFound(jobId);
      // Built once and sent as is: c.json would build the same text again.
      const text = JSON.stringify(present.payload(job, field)) ?? "null";
      c.header("Content-Type", "application/json; charset=UTF-8");
      if (c.req.query("download") !== undefined) {
        c.header("Content-Disposition", `attachment; filename="${fileName(jobId, field)}"`);
      }
      return c.body(text);
    })
    .get("/jobs/:jobId/attempts", async (c) => {
      const jobId = jobIdParam(c.req.param("jobId"));
      const history = source.getAttemptHistory
        ? await source.getAttemptHistory(jobId)
        : await noHistory(source.getJob(jobId));
      if (!history) throw jobNotFound(jobId);
      return c.json(present.attempts(history));
    });
}

/** What a source without an event stream answers: nothing known, so not complete. */
async function noHistory(
  job: Promise<{ attempt: number } | null>,
): Promise<AttemptHistory | null> {
  const found = await job;
  return found && { attempts: [], complete: false, scanned: 0, attempt: found.attempt };
}
