/**
 * The job history as the request's user may see it: a search's page
 * without the tasks the user may not `history.read`, errors redacted (and
 * matched as shown), payloads only with `payload.read`; one job's summary
 * by the same rules, and the job page of a job taskora no longer holds.
 *
 * @module
 */

import type { Context } from "hono";
import { mayReadPayloads } from "../auth/payload_access.ts";
import type { SessionEnv } from "../auth/session.ts";
import { tasksAllowed } from "../auth/task_filter.ts";
import type { UserEnv } from "../auth/user.ts";
import {
  HISTORY_OUTCOMES,
  type HistoryJobResponse,
  type HistoryOutcome,
} from "../contract/history.ts";
import type { JobDetailResponse } from "../contract/jobs.ts";
import type { Presenter } from "../contract/present.ts";
import { BoardError, invalidParam } from "../errors.ts";
import type { ResolvedOptions } from "../options.ts";
import { parseTime } from "../search/job_filter.ts";
import type { TaskSource } from "../source/types.ts";
import { archivedJobDetail } from "./archived_job.ts";
import { findSummary } from "./lookup.ts";
import { historyJobResponse } from "./response.ts";
import { decodeCursor, encodeCursor, type HistorySearch, type HistoryStore } from "./store.ts";
import type { JobSummary } from "./summary.ts";

/**
 * A search of the history as `GET /history/jobs` takes it (validated by
 * `HistoryQuerySchema`, `src/api/schema/history.ts`): times as given,
 * outcomes comma-separated.
 */
export interface HistoryQuery {
  task?: string;
  /** How the job's last attempt ended: outcomes, separated by commas. */
  state?: string;
  /** Epoch ms, or an ISO 8601 date or date-time with a zone. */
  from?: string;
  to?: string;
  version?: number;
  /** Text an attempt's error contains (case ignored). */
  error?: string;
  idPrefix?: string;
  /** A page's `next`. */
  cursor?: string;
  limit: number;
}

/** The history, or 404 `HISTORY_OFF` when the board records none. */
export function historyStoreOf(history: HistoryStore | null): HistoryStore {
  if (history === null) {
    throw new BoardError(
      "HISTORY_OFF",
      "This board records no history (the history option is off, or its source keeps no " +
        "event ids)",
    );
  }
  return history;
}

/**
 * `summary` as the request's user may see it: its errors redacted, its
 * payloads only with `payload.read`.
 */
export async function visibleSummary(
  c: Context<SessionEnv & UserEnv>,
  { options, present }: { options: ResolvedOptions; present: Presenter },
  summary: JobSummary,
): Promise<HistoryJobResponse> {
  const readable = summary.data === undefined && summary.result === undefined
    ? false
    : await mayReadPayloads(c, options, summary.id, summary.task);
  return historyJobResponse(summary, readable, present.error);
}

/**
 * Whether an attempt's error, as the board shows it, holds `text` (case
 * ignored): with redaction on, the store's own match on the stored errors
 * would find a job by a value redaction hides.
 */
function showsError(job: HistoryJobResponse, text: string): boolean {
  const wanted = text.toLowerCase();
  return job.attempts.some((attempt) => attempt.error?.toLowerCase().includes(wanted));
}

/** `state=completed,failed`: the outcomes asked for, each one the history knows. */
function outcomesOf(raw: string | undefined): HistoryOutcome[] | undefined {
  if (raw === undefined) return undefined;
  const states = raw.split(",").map((state) => state.trim());
  const unknown = states.find((state) => !HISTORY_OUTCOMES.includes(state as HistoryOutcome));
  if (unknown !== undefined) {
    throw invalidParam(
      "state",
      `holds ${JSON.stringify(unknown.slice(0, 32))}: one or more of ${
        HISTORY_OUTCOMES.join(", ")
      }, separated by commas`,
    );
  }
  return states as HistoryOutcome[];
}

/**
 * What the history kept of job `jobId` of `task` (null: look under every
 * task the source knows, one read per task), or null: no history, nothing
 * kept, or a task the user may not `history.read`.
 */
export async function readableSummary(
  c: Context<SessionEnv & UserEnv>,
  deps: { history: HistoryStore | null; source: TaskSource; options: ResolvedOptions },
  jobId: string,
  task: string | null,
): Promise<JobSummary | null> {
  if (deps.history === null) return null;
  const readable = tasksAllowed(c, deps.options, "history.read");
  if (task === null) {
    return await findSummary(deps.history, await deps.source.listTasks(), jobId, readable);
  }
  if (readable && !await readable(task)) return null;
  return await deps.history.summary(task, jobId);
}

/**
 * The job page of `jobId` from the history, when `miss` is taskora holding
 * no such job and the history holds one the user may read; else null.
 */
export async function archivedJob(
  c: Context<SessionEnv & UserEnv>,
  deps: {
    history: HistoryStore | null;
    source: TaskSource;
    options: ResolvedOptions;
    present: Presenter;
  },
  jobId: string,
  miss: unknown,
): Promise<JobDetailResponse | null> {
  if (!(miss instanceof BoardError) || miss.code !== "JOB_NOT_FOUND") return null;
  const summary = await readableSummary(c, deps, jobId, null);
  return summary && archivedJobDetail(await visibleSummary(c, deps, summary));
}

/** The store's search for the route's validated query. */
function historySearchOf(query: HistoryQuery): HistorySearch {
  const from = query.from === undefined ? undefined : parseTime("from", query.from);
  const to = query.to === undefined ? undefined : parseTime("to", query.to);
  if (from !== undefined && to !== undefined && from > to) {
    throw invalidParam("from", "must not be after to");
  }
  return {
    task: query.task,
    states: outcomesOf(query.state),
    from,
    to,
    version: query.version,
    errorText: query.error,
    idPrefix: query.idPrefix,
    cursor: query.cursor,
    limit: query.limit,
  };
}

/**
 * One page of the history's search as the request's user may see it: jobs
 * of a task the user may not `history.read` left out, errors redacted, and
 * under redaction the error text matched on the errors as shown.
 */
export async function visibleHistoryPage(
  c: Context<SessionEnv & UserEnv>,
  deps: { history: HistoryStore | null; options: ResolvedOptions; present: Presenter },
  query: HistoryQuery,
): Promise<{ jobs: HistoryJobResponse[]; next: string | null }> {
  const { options } = deps;
  const store = historyStoreOf(deps.history);
  // Under redaction the error text is matched here, on the errors as shown, so that what a
  // page holds, and where it stops, depends on no hidden value.
  const matchedHere = query.error !== undefined && options.redact.length > 0;
  const page = await store.search(
    historySearchOf({ ...query, error: matchedHere ? undefined : query.error }),
  );
  // Across every task, `can` was asked about `*`: one that decides per task is asked
  // about each task found, and its jobs are left out of the page when it refuses.
  const readable = query.task === undefined ? tasksAllowed(c, options, "history.read") : undefined;
  const allowed = new Map<string, Promise<boolean>>();
  const mayRead = (task: string) => {
    if (readable === undefined) return Promise.resolve(true);
    if (!allowed.has(task)) allowed.set(task, readable(task));
    return allowed.get(task)!;
  };
  const jobs: HistoryJobResponse[] = [];
  for (const summary of page.summaries) {
    if (!await mayRead(summary.task)) continue;
    const job = await visibleSummary(c, deps, summary);
    if (!matchedHere || showsError(job, query.error!)) jobs.push(job);
  }
  return { jobs, next: page.next && await visibleCursor(page.next, mayRead) };
}

/**
 * A page's `next` as the user may see it. It is where the store stopped
 * looking: a job of a task the user may not read names no more than its task
 * and end there, its id left out: the position after every job of that task
 * at that end, so the pages after it are the same to this user, who sees
 * none of that task's.
 */
async function visibleCursor(
  next: string,
  mayRead: (task: string) => Promise<boolean>,
): Promise<string> {
  const position = decodeCursor(next);
  return await mayRead(position.task) ? next : encodeCursor({ ...position, id: "" });
}
