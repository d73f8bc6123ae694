/**
 * The board over the App's own Redis: the Redis source on the App's ioredis
 * connection and key prefix, with what only the App knows added (task
 * definitions, schedules declared in code) and triggers dispatched by the
 * App itself.
 *
 * @module
 */

import { type AppDispatch, appDispatch } from "./dispatch.ts";
import type {
  RerunResult,
  SchedulePatch,
  ScheduleRecord,
  TaskDefinition,
  TriggerResult,
} from "../source/types.ts";
import { RedisTaskSource } from "../source/redis/mod.ts";
import type { RedisConnection } from "../source/redis/client.ts";
import { getSchedule } from "../source/redis/schedules.ts";
import { jobNotFound, scheduleNotFound } from "../source/refusals.ts";
import { keyRoot } from "../source/wire/keys.ts";
import type { TaskoraAppLike } from "./app.ts";
import { appTaskDefinition, DeclaredSchedules } from "./definitions.ts";
import { fromIoredis, type IoredisLike } from "./ioredis_client.ts";
import {
  decodeLedgerEntry,
  encodeLedgerEntry,
  rerunThroughApp,
  TRIGGER_CLAIM_TTL_MS,
  TRIGGER_KEY_TTL_MS,
  type TriggerLedger,
  triggerThroughApp,
} from "./trigger.ts";

/**
 * Trigger keys in Redis (`<root>:board:trigger:<uuid>`, one string per key,
 * held for a minute while its dispatch is sent, then kept a day with the
 * job's id), so that board replicas share them.
 */
function redisLedger(connection: RedisConnection, prefix?: string): TriggerLedger {
  const key = (token: string) => `${keyRoot(prefix)}:board:trigger:${token}`;
  return {
    async claim(token, fingerprint) {
      const claimed = encodeLedgerEntry({ jobId: "", fingerprint });
      const [set, existing] = await connection.pipeline([
        ["SET", key(token), claimed, "NX", "PX", String(TRIGGER_CLAIM_TTL_MS)],
        ["GET", key(token)],
      ]) as [string | null, string | null];
      if (set === "OK") return null;
      return decodeLedgerEntry(existing ?? claimed);
    },
    async record(token, entry) {
      const value = encodeLedgerEntry(entry);
      await connection.call(["SET", key(token), value, "PX", String(TRIGGER_KEY_TTL_MS)]);
    },
    async release(token) {
      await connection.call(["DEL", key(token)]);
    },
  };
}

/** The Redis source of a taskora App with the ioredis Redis adapter. */
export class AppRedisSource extends RedisTaskSource {
  readonly #app: TaskoraAppLike;
  readonly #declared: DeclaredSchedules;
  readonly #ledger: TriggerLedger;
  /** Dispatches a job through the App (`task.dispatch`); see `dispatch.ts`. */
  readonly dispatchJob: AppDispatch;

  /** Reads through `redis` (never closed here) under the App's `prefix`. */
  constructor(app: TaskoraAppLike, redis: IoredisLike, prefix?: string) {
    super({
      client: fromIoredis(redis),
      prefix,
      knownTasks: () => [...app.getRegisteredTasks()].map((task) => task.name),
    });
    this.#app = app;
    this.#declared = new DeclaredSchedules(app);
    this.#ledger = redisLedger(this.connection, prefix);
    this.dispatchJob = appDispatch(app, this.#ledger);
  }

  /** The App's definition of a task; null for a task it does not register. */
  getTaskDefinition(task: string): Promise<TaskDefinition | null> {
    return Promise.resolve(appTaskDefinition(this.#app, this.#declared, task));
  }

  #mark(schedule: ScheduleRecord): ScheduleRecord {
    return { ...schedule, declaredInCode: this.#declared.has(schedule.name) };
  }

  /** Every schedule, those declared in code marked so. */
  override async listSchedules(): Promise<ScheduleRecord[]> {
    return (await super.listSchedules()).map((s) => this.#mark(s));
  }

  /** Changes, pauses or resumes a schedule (one declared in code is reset by the next `app.start()`). */
  override async updateSchedule(name: string, patch: SchedulePatch): Promise<ScheduleRecord> {
    return this.#mark(await super.updateSchedule(name, patch));
  }

  /** Dispatches one run through the App; see `trigger.ts`. */
  override async triggerSchedule(name: string, idempotencyKey?: string): Promise<TriggerResult> {
    const record = await getSchedule(this.connection, name, this.prefix);
    if (!record) throw scheduleNotFound(name);
    return await triggerThroughApp(
      this.#app,
      this.#ledger,
      { name, task: record.config.task },
      idempotencyKey,
    );
  }

  /** Runs a job again through the App (`task.dispatch`); see `trigger.ts`. */
  override async rerunJob(jobId: string): Promise<RerunResult> {
    const job = await this.getJob(jobId);
    if (!job) throw jobNotFound(jobId);
    return await rerunThroughApp(this.#app, job);
  }
}
