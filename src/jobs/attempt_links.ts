/**
 * Each attempt's logs link (the `tracing.logsUrl` template over the
 * attempt's window) for `GET /jobs/{id}/attempts`. taskora's stream says
 * when an attempt ended, not when it started, so an attempt's window runs
 * from when it could start (the job's creation for the first, the retry
 * time the previous one set for the next) to its end. The job's data is
 * read only when the board has the template, and its trace id (for a
 * template naming `{traceId}`) only as shown to a user allowed
 * `payload.read`; for any other user the links are null.
 *
 * @module
 */

import type { Context } from "hono";
import type { SessionEnv } from "../auth/session.ts";
import type { UserEnv } from "../auth/user.ts";
import type { AttemptHistory, AttemptHistoryResponse } from "../contract/attempts.ts";
import { jobLinks } from "../contract/trace_links.ts";
import type { Presenter } from "../contract/present.ts";
import type { ResolvedOptions } from "../options.ts";
import type { TaskSource } from "../source/types.ts";
import { mayReadPayloads } from "../auth/payload_access.ts";

/** `history` (presented) with each attempt's logs link, null where there is none. */
export async function withAttemptLinks(
  c: Context<SessionEnv & UserEnv>,
  { source, present, options }: {
    source: TaskSource;
    present: Presenter;
    options: ResolvedOptions;
  },
  jobId: string,
  history: AttemptHistory,
): Promise<AttemptHistoryResponse> {
  const none = { ...history, attempts: history.attempts.map((a) => ({ ...a, logs: null })) };
  const config = options.tracing;
  if (!config?.logsUrl || history.attempts.length === 0) return none;
  const [job, readable] = await Promise.all([
    source.getJob(jobId),
    mayReadPayloads(c, options, jobId),
  ]);
  if (!job || !readable) return none;
  const data = present.data(job.data, job.task);
  let from = job.runAt ?? job.createdAt;
  return {
    ...history,
    attempts: history.attempts.map((attempt) => {
      const { logs } = jobLinks(config, {
        id: job.id,
        task: job.task,
        data,
        processed: from,
        finished: attempt.at,
      });
      from = attempt.nextAttemptAt ?? attempt.at;
      return { ...attempt, logs };
    }),
  };
}
