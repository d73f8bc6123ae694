/**
 * A job's payloads whole, on demand: `GET /jobs/{id}/payloads/{field}`
 * (`data`, `result`, `error` or `progress`), formatted and redacted as on the
 * job page, as JSON; with `?download` as an attachment. And its attempt
 * history, `GET /jobs/{id}/attempts`, each attempt's own error from the
 * board's history when it keeps one. Both read only, whole job ids only.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import type { AttemptHistory } from "../contract/attempts.ts";
import { PAYLOAD_FIELDS } from "../contract/payload.ts";
import { keptAttempts, withKeptErrors } from "../history/attempts.ts";
import { jobTaskOf } from "../source/job_task.ts";
import { jobNotFound } from "../source/refusals.ts";
import { deepJson } from "../http/deep_json.ts";
import type { SessionEnv } from "../auth/session.ts";
import type { UserEnv } from "../auth/user.ts";
import { withAttemptLinks } from "../jobs/attempt_links.ts";
import type { ApiDeps } from "./deps.ts";
import { readableSummary } from "../history/visible.ts";
import { apiRoute, apiRouter } from "./openapi.ts";
import { jobIdParam, JobIdPath, oneOf } from "./schema/params.ts";
import { AnyJson } from "./schema/common.ts";
import { AttemptHistorySchema } from "./schema/jobs.ts";

const getPayload = apiRoute({
  method: "get",
  path: "/jobs/{jobId}/payloads/{field}",
  permission: { action: "payload.read", target: "{jobId}" },
  tags: ["jobs"],
  summary: "One of the job's payloads, whole",
  request: {
    params: z.object({ jobId: jobIdParam, field: oneOf(PAYLOAD_FIELDS) }),
    query: z.object({
      download: z.string().optional().openapi({
        description: "Present: sent as an attachment (Content-Disposition)",
      }),
    }),
  },
  ok: AnyJson.openapi({ description: "The payload, formatted and redacted as on the job page" }),
  errors: ["INVALID_PARAM", "JOB_NOT_FOUND"],
});

const getAttempts = apiRoute({
  method: "get",
  path: "/jobs/{jobId}/attempts",
  tags: ["jobs"],
  summary: "The job's attempts, from its event stream",
  request: { params: JobIdPath },
  ok: AttemptHistorySchema,
  errors: ["INVALID_PARAM", "JOB_NOT_FOUND"],
});

/** A file name from a job id: characters a file system and a header both take. */
const fileName = (jobId: string, field: string) =>
  `${jobId.replace(/[^A-Za-z0-9._-]/g, "_")}-${field}.json`;

/** Routes under `/jobs/{id}/payloads` and `/jobs/{id}/attempts`. */
export function jobPayloadRoutes(deps: ApiDeps) {
  const { source, present } = deps;
  return apiRouter<SessionEnv & UserEnv>()
    .openapi(getPayload, async (c) => {
      const { jobId, field } = c.req.valid("param");
      const job = await source.getJob(jobId);
      if (!job) throw jobNotFound(jobId);
      if (c.req.valid("query").download !== undefined) {
        c.header("Content-Disposition", `attachment; filename="${fileName(jobId, field)}"`);
      }
      return deepJson(c, present.payload(job, field) ?? null);
    })
    .openapi(getAttempts, async (c) => {
      const { jobId } = c.req.valid("param");
      const stream = source.readStreams
        ? await source.readStreams({ kind: "attempts", jobId })
        : await noHistory(source.getJob(jobId));
      // The history kept each attempt's own error: it fills the stream's, or answers alone
      // for a job taskora removed.
      const kept = deps.history === null
        ? null
        : await readableSummary(c, deps, jobId, stream && await jobTaskOf(source)(jobId));
      const history = stream === null
        ? kept && keptAttempts(kept)
        : kept
        ? withKeptErrors(stream, kept)
        : stream;
      if (!history) throw jobNotFound(jobId);
      return c.json(await withAttemptLinks(c, deps, jobId, present.attempts(history)), 200);
    });
}

/** What a source without an event stream answers: nothing known, so not complete. */
async function noHistory(
  job: Promise<{ attempt: number } | null>,
): Promise<AttemptHistory | null> {
  const found = await job;
  return found && { attempts: [], runs: [], complete: false, scanned: 0, attempt: found.attempt };
}
