/**
 * The retries of the dead-letter queue (one job, the checked jobs, one
 * error group, everything), each behind a confirmation that says how many jobs go back
 * to waiting, and reported by a toast (`Retried 3 jobs`).
 *
 * @module
 */
import { confirmAction } from "../../components/confirm_dialog.ts";
import { runAction, toastError, toastSuccess } from "../../components/toasts.ts";
import type { Api } from "../../lib/api.ts";
import {
  type BulkOperation,
  countBulk,
  operationEnd,
  operationOutcome,
  startBulk,
} from "../../lib/bulk_request.ts";
import { formatCount, formatCountOf } from "../../lib/format.ts";
import { nounFor } from "../../../src/contract/plural.ts";
import type { DeadLetterGroup, FailedJob } from "./types.ts";

/** `1 job`, `3 jobs`. */
export function jobCount(n: number): string {
  return formatCountOf(n, "job");
}

const FRESH = "goes back to waiting as a fresh dispatch (attempt 1)";
const FRESH_MANY = "go back to waiting as fresh dispatches (attempt 1)";

async function retryMany(
  api: Api,
  task: string | null,
  body: { pattern?: string },
): Promise<boolean> {
  const result = await runAction(
    () => api.send("POST", "/dlq/retry-all", { query: { task: task || undefined }, body }),
    ({ retried }) => `Retried ${jobCount(retried)}`,
  );
  return result !== undefined;
}

/** Retries one failed job after confirmation; true when it was sent back to waiting. */
export async function retryJob(api: Api, job: FailedJob): Promise<boolean> {
  const confirmed = await confirmAction({
    title: `Retry job ${job.id.slice(0, 8)}?`,
    message: `1 failed ${job.task} job ${FRESH}.`,
    confirmLabel: "Retry 1 job",
  });
  if (!confirmed) return false;
  const result = await runAction(
    () => api.send("POST", "/dlq/{jobId}/retry", { params: { jobId: job.id } }),
    () => "Retried 1 job",
  );
  return result !== undefined;
}

/** Retries every job of an error group (of the filtered task, if any) after confirmation. */
export async function retryGroup(
  api: Api,
  group: DeadLetterGroup,
  task: string | null,
): Promise<boolean> {
  const confirmed = await confirmAction({
    title: `Retry ${jobCount(group.count)} with this error?`,
    message: `${jobCount(group.count)} failing with “${group.sample}” ${
      nounFor(group.count, FRESH, FRESH_MANY)
    }.`,
    confirmLabel: `Retry ${jobCount(group.count)}`,
  });
  return confirmed && await retryMany(api, task, { pattern: group.pattern });
}

/** Retries every failed job (of the filtered task, if any) after confirmation. */
export async function retryAll(api: Api, total: number, task: string | null): Promise<boolean> {
  const confirmed = await confirmAction({
    title: `Retry all ${jobCount(total)}?`,
    message: `Every failed job ${task ? `of ${task}` : "of every task"} (${jobCount(total)}) ${
      nounFor(total, FRESH, FRESH_MANY)
    }. Jobs that fail again come back here.`,
    confirmLabel: `Retry ${jobCount(total)}`,
  });
  return confirmed && await retryMany(api, task, {});
}

/**
 * Retries the checked jobs after confirmation: per task, a bulk retry of
 * its checked ids (`POST /bulk`, atomic and audited), one task after the
 * other. The confirmation names the count the server gives now (a dry run
 * per task); the toast says what was retried and what a worker had moved
 * on first, or that an operation stopped, and why. Resolves to whether an
 * operation ran (the page then reads again).
 */
export async function retryChecked(api: Api, jobs: readonly FailedJob[]): Promise<boolean> {
  const byTask = Map.groupBy(jobs, (job) => job.task);
  const selectors = [...byTask].map(([task, checked]) => ({
    task,
    ids: checked.map((job) => job.id),
  }));
  let count = 0;
  try {
    for (const selector of selectors) count += await countBulk(api, "retry", selector);
  } catch (error) {
    toastError(error);
    return false;
  }
  const confirmed = await confirmAction({
    title: count === 0 ? "No job to retry" : `Retry ${jobCount(count)}?`,
    message: count === 0
      ? "None of the checked jobs is failed now: a worker or another operator moved them on."
      : count === jobs.length
      ? `The ${jobCount(count)} checked ${nounFor(count, FRESH, FRESH_MANY)}.`
      : `${jobCount(count)} of the ${jobCount(jobs.length)} checked ${
        nounFor(count, FRESH, FRESH_MANY)
      }; the others are no longer failed.`,
    confirmLabel: count === 0 ? "Close" : `Retry ${jobCount(count)}`,
  });
  if (!confirmed || count === 0) return false;
  const operations: BulkOperation[] = [];
  let started = 0;
  try {
    for (const selector of selectors) {
      const operation = await startBulk(api, "retry", selector);
      started++;
      operations.push(await operationEnd(api, operation));
    }
  } catch (error) {
    toastError(error);
    // An operation that started may have retried jobs: the page reads again. None did: the
    // checked jobs stay checked, to try again.
    return started > 0;
  }
  // An operation that stopped (failed, or cancelled elsewhere) says so: never "Retried 0 jobs".
  const stopped = operations.find((operation) => operation.status !== "done");
  if (stopped) {
    toastError(new Error(operationOutcome(stopped)));
  } else {
    const done = operations.reduce((sum, op) => sum + op.done, 0);
    const skipped = operations.reduce((sum, op) => sum + op.skipped, 0);
    toastSuccess(
      `Retried ${jobCount(done)}${skipped > 0 ? `, ${formatCount(skipped)} skipped` : ""}`,
    );
  }
  return true;
}
