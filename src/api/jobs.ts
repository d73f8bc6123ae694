/**
 * One job, found across every task: `GET /jobs/{id}` in full (by its id, or
 * by the start of it, with its newest logs; payloads over the limit by their
 * size), and its actions (whole ids only): `retry`, `retry-edited` (with new
 * data), `rerun` (a new job with its data) and `cancel`. Its log is
 * `job_logs.ts`; its payloads whole and its attempts, `job_payloads.ts`.
 *
 * @module
 */

import { Hono } from "hono";
import {
  type JobActionResponse,
  MAX_EDITED_DATA_BYTES,
  type RerunResponse,
} from "../contract/jobs.ts";
import { BoardError, invalidParam } from "../errors.ts";
import type { JobDetail, TaskSource } from "../source/types.ts";
import { optionalString, readJsonObject } from "./body.ts";
import type { ApiDeps } from "./deps.ts";
import type { ResolvedOptions } from "../options.ts";
import { jobNotFound } from "../source/refusals.ts";

/** Longest job id accepted; taskora's are UUIDs, custom ids stay well below. */
export const MAX_JOB_ID_LENGTH = 256;

/**
 * Shortest start of an id `GET /jobs/{id}` looks a job up by. The UI shows
 * 8 characters; below 6 a prefix of a UUID names too many jobs to be useful.
 */
export const MIN_ID_PREFIX = 6;

/** How many candidates an ambiguous prefix names. */
const CANDIDATES = 5;

/**
 * The job whose id is `id`, else the one job whose id starts with it (see
 * {@link TaskSource.findJobsByIdPrefix} for which jobs a prefix can find).
 * `JOB_NOT_FOUND` when none is; `INVALID_PARAM` naming the candidates when
 * several are.
 */
export async function findJob(source: TaskSource, id: string): Promise<JobDetail> {
  const exact = await source.getJob(id);
  if (exact) return exact;
  if (id.length < MIN_ID_PREFIX) throw jobNotFound(id);
  const found = await source.findJobsByIdPrefix(id, CANDIDATES + 1);
  if (found.length > 1) {
    const names = found.slice(0, CANDIDATES).map((job) => `${job.id} (${job.task})`).join(", ");
    const more = found.length > CANDIDATES ? ", and more" : "";
    throw new BoardError(
      "INVALID_PARAM",
      `"${id}" is the start of several job IDs: ${names}${more}. Type more of the ID.`,
      { param: "jobId" },
    );
  }
  const job = found.length === 1 ? await source.getJob(found[0].id) : null;
  if (!job) {
    throw new BoardError(
      "JOB_NOT_FOUND",
      `Job "${id}" not found: no job has this ID, and none the board listed recently starts with it`,
    );
  }
  return job;
}

/** Checks a job id from the path. */
export function jobIdParam(raw: string): string {
  if (raw.length === 0 || raw.length > MAX_JOB_ID_LENGTH) {
    throw invalidParam("jobId", `must be 1 to ${MAX_JOB_ID_LENGTH} characters`);
  }
  return raw;
}

/**
 * The `data` of an edited retry's body: present, and at most
 * {@link MAX_EDITED_DATA_BYTES} of JSON text (its depth was checked with
 * the body).
 */
export function editedData(body: Record<string, unknown>): unknown {
  if (!("data" in body)) throw invalidParam("data", "is required: the job's new data, as JSON");
  const bytes = new TextEncoder().encode(JSON.stringify(body.data)).length;
  if (bytes > MAX_EDITED_DATA_BYTES) {
    throw invalidParam(
      "data",
      `must be at most ${MAX_EDITED_DATA_BYTES} bytes of JSON (got ${bytes})`,
    );
  }
  return body.data;
}

/**
 * Whether the board shows job data as stored: with redaction or a data
 * formatter the editor would hold masked or reshaped values, and an edited
 * retry would write them over the real ones.
 */
export function dataShownAsStored(
  options: Pick<ResolvedOptions, "redact" | "formatters">,
): boolean {
  return options.redact.length === 0 && options.formatters.data === undefined;
}

/** Routes under `/jobs`. */
export function jobRoutes({ source, present, options }: ApiDeps): Hono {
  return new Hono()
    .get("/jobs/:jobId", async (c) => {
      const job = await findJob(source, jobIdParam(c.req.param("jobId")));
      return c.json(present.jobDetail(job));
    })
    .post("/jobs/:jobId/retry", async (c) => {
      const jobId = jobIdParam(c.req.param("jobId"));
      await readJsonObject(c, []);
      return c.json({ ok: true, ...await source.retryJob(jobId) } satisfies JobActionResponse);
    })
    .post("/jobs/:jobId/retry-edited", async (c) => {
      const jobId = jobIdParam(c.req.param("jobId"));
      if (!dataShownAsStored(options)) {
        throw new BoardError(
          "INVALID_STATE",
          "This board masks (redact) or reshapes (formatters.data) job data, so an edited " +
            "retry would write what it shows over what is stored: it is off here",
        );
      }
      const data = editedData(await readJsonObject(c, ["data"], { required: true }));
      const retried = await source.retryJobWithData(jobId, data);
      return c.json({ ok: true, ...retried } satisfies JobActionResponse);
    })
    .post("/jobs/:jobId/rerun", async (c) => {
      const jobId = jobIdParam(c.req.param("jobId"));
      await readJsonObject(c, []);
      return c.json({ ok: true, ...await source.rerunJob(jobId) } satisfies RerunResponse);
    })
    .post("/jobs/:jobId/cancel", async (c) => {
      const jobId = jobIdParam(c.req.param("jobId"));
      const reason = optionalString(await readJsonObject(c, ["reason"]), "reason");
      const cancelled = await source.cancelJob(jobId, reason);
      return c.json({ ok: true, ...cancelled } satisfies JobActionResponse);
    });
}
