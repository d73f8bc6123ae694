/**
 * Reads of job payloads inside routes that show more than payloads: a job's
 * page shows its state, timings and error to whoever may see the board, its
 * data, result and logs only to a user allowed `payload.read`; a search by
 * data, result or logs is refused without it (its matches would be an
 * oracle on the values).
 *
 * @module
 */

import type { Context } from "hono";
import type { SessionEnv } from "../auth/session.ts";
import { actingUser, type UserEnv } from "../auth/user.ts";
import type { JobDetailResponse } from "../contract/jobs.ts";
import { BoardError } from "../errors.ts";
import type { ResolvedOptions } from "../options.ts";

/** Whether the user asking may read the payloads of `target` (a job id or a task). */
export async function mayReadPayloads(
  c: Context<SessionEnv & UserEnv>,
  options: Pick<ResolvedOptions, "auth" | "can">,
  target: string,
): Promise<boolean> {
  return options.auth === null || await options.can(actingUser(c), "payload.read", target);
}

/** Refuses, 403 `FORBIDDEN` naming `payload.read`, a user who may not read the payloads of `target`. */
export async function assertMayReadPayloads(
  c: Context<SessionEnv & UserEnv>,
  options: Pick<ResolvedOptions, "auth" | "can">,
  target: string,
): Promise<void> {
  if (await mayReadPayloads(c, options, target)) return;
  throw new BoardError(
    "FORBIDDEN",
    `You may not read the payloads of ${target}: a search by data, result or logs needs payload.read`,
    { param: "payload.read" },
  );
}

/**
 * A job's page without its payloads: no data, result or logs, and nothing
 * that depends on them (their sizes, the count of logs).
 */
export function withoutPayloads(job: JobDetailResponse): JobDetailResponse {
  const { data: _data, result: _result, ...payloads } = job.payloads;
  return { ...job, data: null, result: null, payloads, logs: [], logCount: 0 };
}
