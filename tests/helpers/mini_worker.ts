/**
 * A minimal taskora-style worker for end-to-end tests, written from the wire
 * format (version 6): it takes a job as taskora workers do, runs a handler,
 * and acknowledges it, each step one atomic Lua script on the task's slot.
 * Tests use it to show that what the board writes is work a worker runs.
 *
 * - claim: RPOP the wait list, else ZPOPMIN the prioritized set; LPUSH on
 *   the active list, a `:lock` key (token, PX), `state=active`,
 *   `processedOn`, an `active` event, the marker kept when work is left;
 * - complete: lock checked, LREM active, lock deleted, `state=completed`,
 *   `finishedOn`, `result`, ZADD `:completed`, INCR of the minute's
 *   throughput counter (24 h TTL), a `completed` event;
 * - cancel: when the task's `:cancel` channel names the running job, the
 *   handler's signal aborts and the job is finished as `cancelled`.
 *
 * @module
 */

import { createClient } from "redis";
import { metricKey, taskKeys } from "../../src/source/wire/keys.ts";

type Client = ReturnType<typeof createClient>;

/** A job the worker holds. */
export interface ClaimedJob {
  id: string;
  /** Its data, decoded. */
  data: unknown;
  version: number;
  attempt: number;
  /** The lock token the worker took it with. */
  token: string;
}

const CLAIM = `
local prefix, token, ttl, now = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local id = redis.call('RPOP', KEYS[1])
if not id then
  local popped = redis.call('ZPOPMIN', KEYS[2], 1)
  if #popped == 0 then return false end
  id = popped[1]
end
local jobKey = prefix .. id
redis.call('LPUSH', KEYS[3], id)
redis.call('SET', jobKey .. ':lock', token, 'PX', ttl)
redis.call('HSET', jobKey, 'state', 'active', 'processedOn', now)
redis.call('XADD', KEYS[4], 'MAXLEN', '~', 10000, '*', 'event', 'active', 'jobId', id)
if redis.call('LLEN', KEYS[1]) + redis.call('ZCARD', KEYS[2]) > 0 then
  redis.call('ZADD', KEYS[5], 0, '0')
end
local f = redis.call('HMGET', jobKey, 'data', '_v', 'attempt')
return { id, f[1] or 'null', f[2] or '1', f[3] or '1' }
`;

const COMPLETE = `
local prefix, id, token, result, now = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5]
local jobKey = prefix .. id
if redis.call('GET', jobKey .. ':lock') ~= token then
  return redis.error_reply('LOCK_MISMATCH')
end
redis.call('LREM', KEYS[1], 1, id)
redis.call('DEL', jobKey .. ':lock')
redis.call('HSET', jobKey, 'state', 'completed', 'finishedOn', now, 'result', result)
redis.call('ZADD', KEYS[2], tonumber(now), id)
if redis.call('INCR', KEYS[4]) == 1 then redis.call('EXPIRE', KEYS[4], 86400) end
redis.call('XADD', KEYS[3], 'MAXLEN', '~', 10000, '*', 'event', 'completed', 'jobId', id)
return 1
`;

const FINISH_CANCEL = `
local prefix, id, token, now = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local jobKey = prefix .. id
if redis.call('GET', jobKey .. ':lock') ~= token then
  return redis.error_reply('LOCK_MISMATCH')
end
redis.call('LREM', KEYS[1], 1, id)
redis.call('DEL', jobKey .. ':lock')
local reason = redis.call('HGET', jobKey, 'cancelReason') or ''
redis.call('HSET', jobKey, 'state', 'cancelled', 'finishedOn', now)
redis.call('ZADD', KEYS[2], tonumber(now), id)
redis.call('XADD', KEYS[3], 'MAXLEN', '~', 10000, '*',
  'event', 'cancelled', 'jobId', id, 'reason', reason)
return 1
`;

/** Options of {@link MiniWorker}. */
export interface MiniWorkerOptions {
  /** Redis URL. */
  url: string;
  /** The task it works on. */
  task: string;
  /** taskora key prefix, if any. */
  prefix?: string;
  /** Lock time-to-live, ms (default 30,000). */
  lockTtlMs?: number;
}

/** What {@link MiniWorker.runOne} did with a job. */
export interface RunOutcome {
  job: ClaimedJob;
  state: "completed" | "cancelled";
}

/** A worker for one task: claim, run, acknowledge; cancels over pub/sub. */
export class MiniWorker {
  readonly #options: MiniWorkerOptions;
  readonly #keys: ReturnType<typeof taskKeys>;
  #client: Client | null = null;
  #subscriber: Client | null = null;
  readonly #running = new Map<string, AbortController>();
  /** Job ids received on the task's `:cancel` channel, in order. */
  readonly cancelSignals: string[] = [];

  private constructor(options: MiniWorkerOptions) {
    this.#options = options;
    this.#keys = taskKeys(options.task, options.prefix);
  }

  /** Connects a command client and a subscriber on the task's cancel channel. */
  static async start(options: MiniWorkerOptions): Promise<MiniWorker> {
    const worker = new MiniWorker(options);
    const connect = async () => {
      const client = createClient({ url: options.url });
      client.on("error", () => {});
      await client.connect();
      return client;
    };
    worker.#client = await connect();
    worker.#subscriber = await connect();
    await worker.#subscriber.subscribe(worker.#keys.cancelChannel, (jobId) => {
      worker.cancelSignals.push(jobId);
      worker.#running.get(jobId)?.abort(new Error("cancelled"));
    });
    return worker;
  }

  #eval(source: string, keys: string[], args: (string | number)[]): Promise<unknown> {
    return this.#client!.sendCommand([
      "EVAL",
      source,
      String(keys.length),
      ...keys,
      ...args.map(String),
    ]);
  }

  /** Takes the next job as taskora does, or returns null when there is none. */
  async claim(): Promise<ClaimedJob | null> {
    const keys = this.#keys;
    const token = crypto.randomUUID();
    const reply = await this.#eval(
      CLAIM,
      [keys.wait, keys.prioritized, keys.active, keys.events, keys.marker],
      [keys.jobPrefix, token, this.#options.lockTtlMs ?? 30_000, Date.now()],
    ) as [string, string, string, string] | null;
    if (!reply) return null;
    const [id, data, version, attempt] = reply;
    return {
      id,
      data: JSON.parse(data),
      version: Number(version),
      attempt: Number(attempt),
      token,
    };
  }

  /** Acknowledges a job as completed with `result`. */
  async complete(job: ClaimedJob, result: unknown): Promise<void> {
    const keys = this.#keys;
    const now = Date.now();
    const bucket = Math.floor(now / 60_000) * 60_000;
    await this.#eval(
      COMPLETE,
      [
        keys.active,
        keys.completed,
        keys.events,
        metricKey(this.#options.task, "completed", bucket, this.#options.prefix),
      ],
      [keys.jobPrefix, job.id, job.token, JSON.stringify(result ?? null), now],
    );
  }

  /** Finishes the cancel of a job whose worker was told to stop. */
  async finishCancel(job: ClaimedJob): Promise<void> {
    const keys = this.#keys;
    await this.#eval(
      FINISH_CANCEL,
      [keys.active, keys.cancelled, keys.events],
      [keys.jobPrefix, job.id, job.token, Date.now()],
    );
  }

  /**
   * Claims one job, runs `handler` with its data and an abort signal (fired
   * when the job is cancelled on the cancel channel), then completes it, or
   * finishes the cancel. Null when the queue is empty.
   */
  async runOne(
    handler: (job: ClaimedJob, signal: AbortSignal) => unknown | Promise<unknown>,
  ): Promise<RunOutcome | null> {
    const job = await this.claim();
    if (!job) return null;
    const controller = new AbortController();
    this.#running.set(job.id, controller);
    try {
      const result = await handler(job, controller.signal);
      if (controller.signal.aborted) {
        await this.finishCancel(job);
        return { job, state: "cancelled" };
      }
      await this.complete(job, result);
      return { job, state: "completed" };
    } catch (error) {
      if (!controller.signal.aborted) throw error;
      await this.finishCancel(job);
      return { job, state: "cancelled" };
    } finally {
      this.#running.delete(job.id);
    }
  }

  /** Closes both connections. */
  async stop(): Promise<void> {
    await this.#subscriber?.unsubscribe().catch(() => {});
    await this.#subscriber?.close().catch(() => {});
    await this.#client?.close().catch(() => {});
  }
}
