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
  DispatchRequest,
  DispatchResult,
  RerunResult,
  SchedulePatch,
  ScheduleRecord,
  TaskDefinition,
  TriggerResult,
} from "../source/types.ts";
import { RedisTaskSource } from "../source/redis/mod.ts";
import { assemble, type Assembled } from "../source/assemble.ts";
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

/**
 * What only the App knows, over the Redis source's own methods: the task
 * definitions, the schedules declared in code, and triggers and reruns
 * dispatched by the App itself.
 */
class AppOverRedis {
  readonly #app: TaskoraAppLike;
  readonly #declared: DeclaredSchedules;
  readonly #ledger: TriggerLedger;
  readonly #dispatch: AppDispatch;
  readonly #redis: Pick<RedisTaskSource, "listSchedules" | "updateSchedule" | "getJob">;
  readonly #connection: RedisConnection;
  readonly #prefix?: string;
  /**
   * The marked record made of each record the Redis source answered: an
   * unchanged schedule, answered as the same record, stays the same marked one.
   */
  readonly #marked = new WeakMap<ScheduleRecord, ScheduleRecord>();

  /** The App's, over `redis` (its schedules and jobs) and its connection. */
  constructor(app: TaskoraAppLike, redis: RedisTaskSource) {
    this.#app = app;
    this.#declared = new DeclaredSchedules(app);
    this.#ledger = redisLedger(redis.connection, redis.prefix);
    this.#dispatch = appDispatch(app, this.#ledger);
    this.#redis = {
      listSchedules: redis.listSchedules,
      updateSchedule: redis.updateSchedule,
      getJob: redis.getJob,
    };
    this.#connection = redis.connection;
    this.#prefix = redis.prefix;
  }

  /** Dispatches a job through the App (`task.dispatch`); see `dispatch.ts`. */
  dispatchJob(
    task: string,
    request: DispatchRequest,
    idempotencyKey?: string,
  ): Promise<DispatchResult> {
    return this.#dispatch(task, request, idempotencyKey);
  }

  /** The App's definition of a task; null for a task it does not register. */
  getTaskDefinition(task: string): Promise<TaskDefinition | null> {
    return Promise.resolve(appTaskDefinition(this.#app, this.#declared, task));
  }

  #mark(schedule: ScheduleRecord): ScheduleRecord {
    const declaredInCode = this.#declared.has(schedule.name);
    const marked = this.#marked.get(schedule);
    if (marked?.declaredInCode === declaredInCode) return marked;
    const fresh = { ...schedule, declaredInCode };
    this.#marked.set(schedule, fresh);
    return fresh;
  }

  /** Every schedule, those declared in code marked so. */
  async listSchedules(): Promise<ScheduleRecord[]> {
    return (await this.#redis.listSchedules()).map((s) => this.#mark(s));
  }

  /** Changes, pauses or resumes a schedule (one declared in code is reset by the next `app.start()`). */
  async updateSchedule(name: string, patch: SchedulePatch): Promise<ScheduleRecord> {
    return this.#mark(await this.#redis.updateSchedule(name, patch));
  }

  /** Dispatches one run through the App; see `trigger.ts`. */
  async triggerSchedule(name: string, idempotencyKey?: string): Promise<TriggerResult> {
    const record = await getSchedule(this.#connection, name, this.#prefix);
    if (!record) throw scheduleNotFound(name);
    return await triggerThroughApp(
      this.#app,
      this.#ledger,
      { name, task: record.config.task },
      idempotencyKey,
    );
  }

  /** Runs a job again through the App (`task.dispatch`); see `trigger.ts`. */
  async rerunJob(jobId: string): Promise<RerunResult> {
    const job = await this.#redis.getJob(jobId);
    if (!job) throw jobNotFound(jobId);
    return await rerunThroughApp(this.#app, job);
  }
}

/** The Redis source of a taskora App: the App's own methods in place of the keyspace's. */
export interface AppRedisSource extends Assembled<[AppOverRedis]> {}

/** The Redis source of a taskora App with the ioredis Redis adapter. */
export class AppRedisSource extends RedisTaskSource {
  /** Reads through `redis` (never closed here) under the App's `prefix`. */
  constructor(app: TaskoraAppLike, redis: IoredisLike, prefix?: string) {
    super({
      client: fromIoredis(redis),
      prefix,
      knownTasks: () => [...app.getRegisteredTasks()].map((task) => task.name),
    });
    Object.assign(this, assemble(new AppOverRedis(app, this)));
  }
}
