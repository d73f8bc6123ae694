/**
 * What every part of the App's source reads through: the App, its
 * adapter's interface (`app.adapter`, taskora's `Adapter` type, whose
 * observability methods taskora's own board uses), and the reads the parts
 * share (a job's task, a raw job decoded, the delayed split).
 *
 * @module
 */

import type {
  FinishedState,
  JobRecord,
  QueueStats,
  TaskStorage,
  ThroughputBucket,
  VersionCounts,
} from "../../source/types.ts";
import { decodeJob } from "../../source/wire/decode.ts";
import type { TaskoraAppLike } from "../app.ts";
import { DeclaredSchedules } from "../definitions.ts";
import { memoryLedger, type TriggerLedger } from "../trigger.ts";

/** taskora's raw job (`Adapter.getJobDetails`). */
export interface RawJob {
  fields: Record<string, string>;
  data: string | null;
  result: string | null;
  logs: string[];
}

/** The lists taskora's adapter keeps jobs in. */
export const ADAPTER_STATES = [
  "waiting",
  "active",
  "delayed",
  "completed",
  "failed",
  "expired",
  "cancelled",
] as const;

/** A list taskora's adapter keeps jobs in. */
export type AdapterState = typeof ADAPTER_STATES[number];

/** The part of taskora's `Adapter` interface the board calls. */
export interface AdapterApi {
  getState(task: string, jobId: string): Promise<string | null>;
  getJobDetails(task: string, jobId: string): Promise<RawJob | null>;
  listJobDetails(
    task: string,
    state: AdapterState,
    offset: number,
    limit: number,
  ): Promise<{ id: string; details: RawJob }[]>;
  getQueueStats(task: string): Promise<Omit<QueueStats, "retrying">>;
  getVersionDistribution(
    task: string,
  ): Promise<Record<"waiting" | "active" | "delayed", VersionCounts>>;
  getTaskKeyStats(task: string): Promise<TaskStorage>;
  getThroughput(task: string | null, bucket: number, count: number): Promise<ThroughputBucket[]>;
  getServerInfo(): Promise<
    {
      version: string;
      usedMemory: string;
      uptime: number;
      connected: boolean;
      usedMemoryBytes?: number;
    }
  >;
  cancel(
    task: string,
    jobId: string,
    reason?: string,
  ): Promise<"cancelled" | "flagged" | "not_cancellable">;
  cleanJobs(task: string, state: string, before: number, limit: number): Promise<number>;
  listWorkflows(state?: string, offset?: number, limit?: number): Promise<unknown[]>;
  getWorkflowDetail(id: string): Promise<
    {
      state: string;
      createdAt: number;
      graph: unknown;
      nodes: { index: number; state: string; result: string | null; error: string | null }[];
      result: string | null;
      error: string | null;
    } | null
  >;
  cancelWorkflow(id: string, reason?: string): Promise<{ cancelledJobs?: unknown[] } | unknown>;
  subscribe(
    tasks: string[],
    handler: (
      event: { task: string; event: string; jobId: string; fields: Record<string, string> },
    ) => void,
  ): Promise<() => Promise<void>>;
}

/** Batch of a clean through the adapter. */
export const CLEAN_BATCH = 1000;

/** Most jobs looked at in one state to split delayed from retrying, or to find a job's task. */
export const SCAN_LIMIT = 100_000;

/** Jobs listed per call while looking for a job's task. */
const LOOKUP_PAGE = 1000;

/** The adapter list a job in the hash state `state` sits in (a retrying job waits in `delayed`). */
function adapterState(state: string): AdapterState | null {
  if (state === "retrying") return "delayed";
  return (ADAPTER_STATES as readonly string[]).includes(state) ? state as AdapterState : null;
}

/** The adapter list of each finished state. */
export const FINISHED_ADAPTER: Record<FinishedState, AdapterState> = {
  completed: "completed",
  failed: "failed",
  cancelled: "cancelled",
  expired: "expired",
};

/** The App a source reads, with the reads its parts share. */
export class AppApi {
  /** The App. */
  readonly app: TaskoraAppLike;
  /** Its adapter's interface. */
  readonly adapter: AdapterApi;
  /** The schedules the App declares in code. */
  readonly declared: DeclaredSchedules;
  /** Where triggers and dispatches note their idempotency keys (in process, as the App's store). */
  readonly ledger: TriggerLedger = memoryLedger();

  /** Reads `app` through its API. */
  constructor(app: TaskoraAppLike) {
    this.app = app;
    this.adapter = app.adapter as unknown as AdapterApi;
    this.declared = new DeclaredSchedules(app);
  }

  /** The App's registered tasks, sorted. */
  tasks(): string[] {
    return [...this.app.getRegisteredTasks()].map((t) => t.name).sort();
  }

  /** A raw job of `task` decoded, its data and result by the App's serializer. */
  decode(task: string, id: string, raw: RawJob): JobRecord {
    const fields = { ...raw.fields };
    if (raw.data !== null) fields.data = raw.data;
    if (raw.result !== null) fields.result = raw.result;
    const record = decodeJob(task, id, fields);
    const serializer = (this.app as { serializer?: { deserialize(s: string): unknown } })
      .serializer;
    if (serializer) {
      record.data = raw.data ? serializer.deserialize(raw.data) : null;
      record.result = raw.result ? serializer.deserialize(raw.result) : null;
    }
    return record;
  }

  /**
   * The task holding `jobId`, asked of every registered task. taskora's
   * memory adapter keeps one job store for all tasks and answers the state
   * whatever task it is asked for: when more than one task answers, the one
   * whose list of that state holds the id is the job's (read again once
   * should the job have moved on meanwhile).
   */
  async taskOf(jobId: string): Promise<string | null> {
    const tasks = this.tasks();
    for (let round = 0; round < 2; round++) {
      const states = await Promise.all(tasks.map((t) => this.adapter.getState(t, jobId)));
      const answering = tasks.filter((_, i) => states[i] !== null);
      if (answering.length <= 1) return answering[0] ?? null;
      const state = states.find((s) => s !== null)!;
      for (const task of answering) {
        if (await this.#listHolds(task, state, jobId)) return task;
      }
    }
    return null;
  }

  /** Whether `task`'s list of the job state `state` holds `jobId`, read a page at a time. */
  async #listHolds(task: string, state: string, jobId: string): Promise<boolean> {
    const listed = adapterState(state);
    if (listed === null) return false;
    for (let offset = 0; offset < SCAN_LIMIT; offset += LOOKUP_PAGE) {
      const page = await this.adapter.listJobDetails(task, listed, offset, LOOKUP_PAGE);
      if (page.some(({ id }) => id === jobId)) return true;
      if (page.length < LOOKUP_PAGE) return false;
    }
    return false;
  }

  /** The task's delayed list, told apart into delayed and retrying jobs. */
  async delayedSplit(task: string): Promise<{ delayed: JobRecord[]; retrying: JobRecord[] }> {
    const all = (await this.adapter.listJobDetails(task, "delayed", 0, SCAN_LIMIT))
      .map(({ id, details }) => this.decode(task, id, details));
    return {
      delayed: all.filter((job) => job.state !== "retrying"),
      retrying: all.filter((job) => job.state === "retrying"),
    };
  }

  /** A job's task and raw fields, or null when no task has it. */
  async raw(jobId: string): Promise<{ task: string; raw: RawJob } | null> {
    const task = await this.taskOf(jobId);
    if (task === null) return null;
    const raw = await this.adapter.getJobDetails(task, jobId);
    return raw ? { task, raw } : null;
  }
}
