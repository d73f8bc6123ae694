/**
 * What the memory source's parts read alike: a job's record, a state's ids
 * in the order the board lists them, a task's queue (an unknown task as an
 * empty one), a schedule, the workflows, the failed jobs.
 *
 * @module
 */

import type { DeadLetterEntry } from "../../dead_letters.ts";
import type { JobRecord, JobState, LogEntry, ScheduleRecord, WorkflowDetail } from "../../types.ts";
import { decodeSchedule, decodeWorkflow, scheduleLastJobId } from "../../wire/decode.ts";
import { type MemoryStore, type StoredJob, TaskQueue } from "../store.ts";

/** Copies of log entries, so a caller never holds the store's own. */
export function copyLogs(logs: readonly LogEntry[]): LogEntry[] {
  return logs.map((log) => ({ ...log }));
}

/** A job's record (its hash), without its logs. */
export function toRecord(job: StoredJob): JobRecord {
  return {
    id: job.id,
    task: job.task,
    state: job.state,
    data: job.data,
    result: job.result,
    error: job.error,
    progress: job.progress,
    attempt: job.attempt,
    maxAttempts: job.maxAttempts,
    version: job.version,
    priority: job.priority,
    createdAt: job.createdAt,
    processedAt: job.processedAt,
    finishedAt: job.finishedAt,
    runAt: job.runAt,
    cancelledAt: job.cancelledAt,
    cancelReason: job.cancelReason,
    expireAt: job.expireAt,
    stalledCount: job.stalledCount,
    workflow: job.workflow ? { ...job.workflow } : null,
  };
}

/** Ids of a task's jobs in one state, in the order the board lists them. */
export function* idsInState(queue: TaskQueue, state: JobState): Generator<string> {
  switch (state) {
    case "waiting":
      // Workers pop the wait list before the prioritized set: list in that order.
      yield* queue.wait;
      for (const { member } of queue.prioritized.ascending()) yield member;
      return;
    case "active":
      yield* queue.active;
      return;
    case "delayed":
    case "retrying":
      for (const { member } of queue.delayed.ascending()) {
        if (queue.jobs.get(member)?.state === state) yield member;
      }
      return;
    default:
      for (const { member } of queue.finished[state].descending()) yield member;
  }
}

/** How many of a task's jobs are in `state`. */
export function countState(queue: TaskQueue, state: JobState): number {
  switch (state) {
    case "waiting":
      return queue.wait.length + queue.prioritized.size;
    case "active":
      return queue.active.length;
    case "delayed":
    case "retrying": {
      let count = 0;
      for (const { member } of queue.delayed.ascending()) {
        if (queue.jobs.get(member)?.state === state) count++;
      }
      return count;
    }
    default:
      return queue.finished[state].size;
  }
}

/** A task's queue; an unknown task reads as an empty one (`checked.ts` refuses it first). */
export function queueOf(store: MemoryStore, task: string): TaskQueue {
  return store.tasks.get(task) ?? new TaskQueue(task);
}

/** A stored schedule as the port shows it. */
export function scheduleOf(store: MemoryStore, name: string): ScheduleRecord {
  const { json, nextRun } = store.schedules.get(name)!;
  const lastJobId = scheduleLastJobId(json);
  const status = lastJobId ? store.findJob(lastJobId)?.state ?? null : null;
  return decodeSchedule(name, json, nextRun, status);
}

/** Every workflow of the store, decoded. */
export function workflowsOf(store: MemoryStore): WorkflowDetail[] {
  const all: WorkflowDetail[] = [];
  for (const [id, hash] of store.workflows) {
    const workflow = decodeWorkflow(id, hash);
    if (workflow) all.push(workflow);
  }
  return all;
}

/** Failed jobs of one task or all, most recently failed first. */
export function failedOf(store: MemoryStore, task?: string): DeadLetterEntry[] {
  const queues = task === undefined ? [...store.tasks.values()] : [queueOf(store, task)];
  const entries: DeadLetterEntry[] = [];
  for (const queue of queues) {
    for (const { member, score } of queue.finished.failed.descending()) {
      entries.push({
        id: member,
        task: queue.name,
        error: queue.jobs.get(member)?.error ?? null,
        failedAt: score,
      });
    }
  }
  // Equal times: by task name, then (the sort being stable) ZREVRANGE order.
  return entries.sort((a, b) =>
    b.failedAt - a.failedAt || (a.task < b.task ? -1 : a.task > b.task ? 1 : 0)
  );
}
