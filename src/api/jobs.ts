/**
 * One job, found across every task: `GET /jobs/{id}` in full (by its id, or
 * by the start of it, with its newest logs; payloads over the limit by their
 * size), and its actions (whole ids only): `retry`, `retry-edited` (with new
 * data), `rerun` (a new job with its data) and `cancel`; a job taskora no
 * longer holds is answered from the history, marked archived. Its log is
 * `job_logs.ts`; its payloads whole and its attempts, `job_payloads.ts`.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import { MAX_EDITED_DATA_BYTES } from "../contract/jobs.ts";
import { BoardError } from "../errors.ts";
import type { JobDetail } from "../source/types.ts";
import { dataShownAsStored, editedData } from "../jobs/edited_data.ts";
import { findJob } from "../jobs/find_job.ts";
import { searchableTasks } from "../auth/task_filter.ts";
import { archivedJob } from "../history/visible.ts";
import { bodyOf, jsonBody, textField } from "./schema/body.ts";
import type { ApiDeps } from "./deps.ts";
import { apiRoute, apiRouter } from "./openapi.ts";
import { mayReadPayloads, withoutPayloads } from "../auth/payload_access.ts";
import type { SessionEnv } from "../auth/session.ts";
import type { UserEnv } from "../auth/user.ts";
import { JobIdPath } from "./schema/params.ts";
import { JobActionSchema, JobDetailSchema, RerunSchema } from "./schema/jobs.ts";

const tags = ["jobs"];

const getJob = apiRoute({
  method: "get",
  path: "/jobs/{jobId}",
  tags,
  summary: "A job in full, by its id or the start of it (at least 6 characters)",
  request: { params: JobIdPath },
  ok: JobDetailSchema,
  errors: ["INVALID_PARAM", "JOB_NOT_FOUND"],
});

const noBody = jsonBody(bodyOf({}));

const retry = apiRoute({
  method: "post",
  path: "/jobs/{jobId}/retry",
  audit: { action: "job.retry", target: "{jobId}" },
  tags,
  summary: "Send a failed or cancelled job back to waiting",
  request: { params: JobIdPath, body: noBody },
  ok: JobActionSchema,
  errors: ["JOB_NOT_FOUND", "INVALID_STATE"],
});

const retryEdited = apiRoute({
  method: "post",
  path: "/jobs/{jobId}/retry-edited",
  audit: { action: "job.retry-edited", target: "{jobId}" },
  tags,
  summary: "Retry a job with new data (off when the board redacts or formats data)",
  request: {
    params: JobIdPath,
    body: jsonBody(
      bodyOf({
        data: z.unknown().openapi({
          description: `The job's new data, at most ${MAX_EDITED_DATA_BYTES} bytes of JSON`,
        }),
      }, { required: true }),
      { required: true },
    ),
  },
  ok: JobActionSchema,
  errors: ["JOB_NOT_FOUND", "INVALID_STATE"],
});

const rerun = apiRoute({
  method: "post",
  path: "/jobs/{jobId}/rerun",
  audit: { action: "job.rerun", target: "{jobId}" },
  tags,
  summary: "Dispatch a new job with this job's data",
  request: { params: JobIdPath, body: noBody },
  ok: RerunSchema,
  errors: ["JOB_NOT_FOUND", "VERSION_UNKNOWN"],
});

const cancel = apiRoute({
  method: "post",
  path: "/jobs/{jobId}/cancel",
  audit: { action: "job.cancel", target: "{jobId}" },
  tags,
  summary: "Cancel a pending job (an active one is signalled)",
  request: { params: JobIdPath, body: jsonBody(bodyOf({ reason: textField() })) },
  ok: JobActionSchema,
  errors: ["JOB_NOT_FOUND", "INVALID_STATE"],
});

/** Routes under `/jobs`. */
export function jobRoutes(deps: ApiDeps) {
  const { source, present, options } = deps;
  return apiRouter<SessionEnv & UserEnv>()
    .openapi(getJob, async (c) => {
      const { jobId } = c.req.valid("param");
      let job: JobDetail;
      try {
        job = await findJob(source, jobId, searchableTasks(c, options));
      } catch (miss) {
        // A job taskora removed: its page from the history, when the board keeps one.
        const archived = await archivedJob(c, deps, jobId, miss);
        if (archived === null) throw miss;
        return c.json(archived, 200);
      }
      const shown = present.jobDetail(job);
      const readable = await mayReadPayloads(c, options, job.id, job.task);
      return c.json(readable ? shown : withoutPayloads(shown), 200);
    })
    .openapi(retry, async (c) => {
      const { jobId } = c.req.valid("param");
      return c.json({ ok: true as const, ...await source.retryJob(jobId) }, 200);
    })
    .openapi(retryEdited, async (c) => {
      const { jobId } = c.req.valid("param");
      if (!dataShownAsStored(options)) {
        throw new BoardError(
          "INVALID_STATE",
          "This board masks (redact) or reshapes (formatters.data) job data, so an edited " +
            "retry would write what it shows over what is stored: it is off here",
        );
      }
      const data = editedData(c.req.valid("json"));
      const retried = await source.retryJob(jobId, { data });
      return c.json({ ok: true as const, ...retried }, 200);
    })
    .openapi(rerun, async (c) => {
      const { jobId } = c.req.valid("param");
      return c.json({ ok: true as const, ...await source.rerunJob(jobId) }, 200);
    })
    .openapi(cancel, async (c) => {
      const { jobId } = c.req.valid("param");
      const cancelled = await source.cancelJob(jobId, c.req.valid("json").reason);
      return c.json({ ok: true as const, ...cancelled }, 200);
    });
}
