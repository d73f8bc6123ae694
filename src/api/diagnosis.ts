/**
 * "Why is this job waiting?": `GET /jobs/{jobId}/diagnosis`. The source
 * reads the job's facts (see `contract/diagnosis.ts`); the route adds what
 * the board knows beside them (the App's definition of the task, taskora's
 * migration lock, how fast its queue drains, when its
 * workers last took a job) and hides
 * the job's keys from a user who may not read its payloads. A job that is
 * not pending answers its state and no reasons.
 *
 * @module
 */

import { DIAGNOSED_STATES } from "../contract/diagnosis.ts";
import { diagnose } from "../contract/diagnosis_reasons.ts";
import { WORKERS_EVENT_DEPTH } from "../contract/workers.ts";
import { jobNotFound } from "../source/refusals.ts";
import type { SessionEnv } from "../auth/session.ts";
import type { UserEnv } from "../auth/user.ts";
import type { ApiDeps } from "./deps.ts";
import { drainRate } from "../samplers/drain_rate.ts";
import { apiRoute, apiRouter } from "./openapi.ts";
import { JobIdPath } from "./schema/params.ts";
import { mayReadPayloads } from "../auth/payload_access.ts";
import { JobDiagnosisSchema } from "./schema/diagnosis.ts";

const UNREAD = "this TaskSource does not read taskora's queues, flow control keys or streams";

const getDiagnosis = apiRoute({
  method: "get",
  path: "/jobs/{jobId}/diagnosis",
  tags: ["jobs"],
  summary: "What holds a waiting, delayed, retrying or active job back, with the evidence",
  request: { params: JobIdPath },
  ok: JobDiagnosisSchema,
  errors: ["INVALID_PARAM", "JOB_NOT_FOUND"],
});

/** Route `/jobs/{jobId}/diagnosis`. */
export function diagnosisRoutes({ source, options, clock }: ApiDeps) {
  return apiRouter<SessionEnv & UserEnv>().openapi(getDiagnosis, async (c) => {
    const { jobId } = c.req.valid("param");
    const readAt = clock();
    if (!source.getJobHolds) {
      const job = await source.getJob(jobId);
      if (!job) throw jobNotFound(jobId);
      const { id, task, state } = job;
      return c.json({ id, task, state, readAt, reasons: [], unknown: [UNREAD] }, 200);
    }
    const holds = await source.getJobHolds(jobId);
    if (!holds) throw jobNotFound(jobId);
    const { id, task, state } = holds;
    if (!DIAGNOSED_STATES.includes(state)) {
      return c.json({ id, task, state, readAt, reasons: [], unknown: [] }, 200);
    }
    const [definition, migrationLock, rate, activity, showKeys] = await Promise.all([
      source.getTaskDefinition?.(task) ?? null,
      source.readLocks?.({ kind: "migration" }) ?? null,
      drainRate(source, task, readAt),
      source.readStreams?.({ kind: "activity", tasks: [task], depth: WORKERS_EVENT_DEPTH }),
      mayReadPayloads(c, options, id, task),
    ]);
    const { reasons, unknown } = diagnose(holds, {
      now: readAt,
      definition,
      migrationLock,
      drainRate: rate,
      activity: activity?.get(task) ?? null,
      eventDepth: WORKERS_EVENT_DEPTH,
      maxIdleMs: options.health.maxIdleMs,
      showKeys,
    });
    return c.json({ id, task, state, readAt, reasons, unknown }, 200);
  });
}
