/**
 * Writes jobs in taskora's exact wire format (version 6), as its Lua scripts
 * do: ENQUEUE for waiting jobs, ENQUEUE_DELAYED for delayed ones, and the
 * fields ACK / FAIL leave behind for active, completed, failed and retrying
 * jobs. Tests use it to add jobs; {@link fillRedis} loads a big keyspace for
 * benchmarks.
 *
 * @module
 */

import { metricKey, taskKeys } from "../../src/source/wire/keys.ts";

/** What the writer needs of a node-redis client. */
export interface CommandSender {
  sendCommand(args: string[]): Promise<unknown>;
}

/** A job to write. */
export interface WireJob {
  task: string;
  id?: string;
  state: "waiting" | "delayed" | "retrying" | "active" | "completed" | "failed";
  data?: unknown;
  /** Dispatch time, ms (default now). */
  ts?: number;
  version?: number;
  priority?: number;
  maxAttempts?: number;
  /** For retrying/failed jobs: the attempt they are at. */
  attempt?: number;
  error?: string;
  result?: unknown;
  /** delayed: ms after ts; retrying: run-at ms. */
  delay?: number;
  runAt?: number;
  /** completed/failed: finish time, ms. */
  finishedOn?: number;
  workflow?: { id: string; nodeIndex: number };
}

/**
 * The commands that write one job (one slot: all keys are the task's).
 * Returns them rather than sending, so callers can pipeline many jobs.
 */
export function jobCommands(job: WireJob, prefix?: string): { id: string; commands: string[][] } {
  const keys = taskKeys(job.task, prefix);
  const id = job.id ?? crypto.randomUUID();
  const jobKey = `${keys.jobPrefix}${id}`;
  const ts = job.ts ?? Date.now();
  const priority = job.priority ?? 0;
  const data = JSON.stringify(job.data ?? null);
  const base = [
    "ts",
    String(ts),
    "_v",
    String(job.version ?? 1),
    "attempt",
    "1",
    "maxAttempts",
    String(job.maxAttempts ?? 1),
  ];
  const workflow = job.workflow
    ? ["_wf", job.workflow.id, "_wfNode", String(job.workflow.nodeIndex)]
    : [];
  const event = (fields: string[]) => [
    "XADD",
    keys.events,
    "MAXLEN",
    "~",
    "10000",
    "*",
    ...fields,
  ];
  const commands: string[][] = [];

  if (job.state === "delayed") {
    const delay = job.delay ?? 60_000;
    const score = String(ts + delay);
    commands.push(
      [
        "HSET",
        jobKey,
        "ts",
        String(ts),
        "delay",
        String(delay),
        "_v",
        String(job.version ?? 1),
        "attempt",
        "1",
        "maxAttempts",
        String(job.maxAttempts ?? 1),
        "state",
        "delayed",
        "priority",
        String(priority),
        "data",
        data,
      ],
      ["ZADD", keys.delayed, score, id],
      ["ZADD", keys.marker, "LT", score, "0"],
      event(["event", "delayed", "jobId", id]),
    );
    return { id, commands };
  }

  // ENQUEUE: every other state starts as a waiting job.
  commands.push([
    "HSET",
    jobKey,
    ...base,
    "state",
    "waiting",
    "priority",
    String(priority),
    "data",
    data,
    ...workflow,
  ]);
  if (job.state === "waiting") {
    if (priority > 0) {
      commands.push(["ZADD", keys.prioritized, String(-priority * 1e13 + ts), id]);
    } else {
      commands.push(["LPUSH", keys.wait, id]);
    }
    commands.push(["ZADD", keys.marker, "0", "0"], event(["event", "waiting", "jobId", id]));
    return { id, commands };
  }

  // MOVE_TO_ACTIVE
  const processedOn = String(ts + 1);
  commands.push(
    ["HSET", jobKey, "state", "active", "processedOn", processedOn],
    event(["event", "active", "jobId", id]),
  );
  if (job.state === "active") {
    commands.push(["LPUSH", keys.active, id]);
    return { id, commands };
  }
  const finishedOn = String(job.finishedOn ?? ts + 2);
  const attempt = String(job.attempt ?? 1);
  if (job.state === "completed") {
    commands.push(
      [
        "HSET",
        jobKey,
        "state",
        "completed",
        "finishedOn",
        finishedOn,
        "result",
        JSON.stringify(job.result ?? null),
      ],
      ["ZADD", keys.completed, finishedOn, id],
      event(["event", "completed", "jobId", id]),
    );
  } else if (job.state === "failed") {
    commands.push(
      [
        "HSET",
        jobKey,
        "attempt",
        attempt,
        "state",
        "failed",
        "finishedOn",
        finishedOn,
        "error",
        job.error ?? "failed",
      ],
      ["ZADD", keys.failed, finishedOn, id],
      event(["event", "failed", "jobId", id]),
    );
  } else {
    const runAt = String(job.runAt ?? ts + 5000);
    const next = String(job.attempt ?? 2);
    commands.push(
      ["HSET", jobKey, "attempt", next, "state", "retrying", "error", job.error ?? "failed"],
      ["ZADD", keys.delayed, runAt, id],
      ["ZADD", keys.marker, "LT", runAt, "0"],
      event(["event", "retrying", "jobId", id, "attempt", next, "nextAttemptAt", runAt]),
    );
  }
  return { id, commands };
}

/** Writes one job (one pipeline) and returns its id. */
export async function writeJob(
  client: CommandSender,
  job: WireJob,
  prefix?: string,
): Promise<string> {
  const { id, commands } = jobCommands(job, prefix);
  await Promise.all(commands.map((args) => client.sendCommand(args)));
  return id;
}

/**
 * The commands that write `count` failed jobs of `task`, as a retry
 * benchmark wants them: attempt 3 of 3, one in ten at priority 2,
 * dispatched 10 ms apart up to `now`.
 */
export function* failedJobCommands(
  task: string,
  count: number,
  now = Date.now(),
): Generator<string[]> {
  for (let i = 0; i < count; i++) {
    const ts = now - (count - i) * 10;
    yield* jobCommands({
      task,
      state: "failed",
      ts,
      data: { i },
      error: `Connection timeout after ${1000 + (i % 5000)} ms`,
      attempt: 3,
      maxAttempts: 3,
      priority: i % 10 === 0 ? 2 : 0,
      finishedOn: ts + 5,
    }).commands;
  }
}

/**
 * Writes {@link failedJobCommands}, pipelined `flushEvery` commands at a
 * time.
 */
export async function writeFailedJobs(
  client: CommandSender,
  task: string,
  count: number,
  now = Date.now(),
  flushEvery = 10_000,
): Promise<void> {
  await sendPipelined(client, failedJobCommands(task, count, now), flushEvery);
}

/** Sends `commands` through `client`, `batch` at a time in flight. */
export async function sendPipelined(
  client: CommandSender,
  commands: Iterable<string[]>,
  batch: number,
): Promise<void> {
  let pending: Promise<unknown>[] = [];
  for (const command of commands) {
    pending.push(client.sendCommand(command));
    if (pending.length >= batch) {
      await Promise.all(pending);
      pending = [];
    }
  }
  await Promise.all(pending);
}

/** Options of {@link fillRedis}. */
export interface FillOptions {
  jobs: number;
  tasks: number;
  prefix?: string;
  /** Commands per pipeline flush (default 10,000). */
  batch?: number;
  now?: number;
}

const ERRORS = [
  (i: number) => `Connection timeout after ${1000 + (i % 5000)} ms`,
  (i: number) => `Mailbox full for user ${i}`,
  (i: number) => `HTTP 50${i % 4} from upstream`,
];
const STATES: WireJob["state"][] = [
  "completed",
  "completed",
  "completed",
  "failed",
  "waiting",
  "delayed",
  "retrying",
  "active",
];

/**
 * The commands that load `jobs` jobs spread over `tasks` tasks (`task-0`…),
 * in a mix of states (most completed), failed ones with three error shapes
 * that differ only in numbers, plus the last hour of throughput counters.
 * {@link fillRedis} pipelines them; a benchmark at a million jobs feeds them
 * to `pipeCommands` (`redis_pipe.ts`), ten times faster.
 */
export function* fillCommands(options: FillOptions): Generator<string[]> {
  const now = options.now ?? Date.now();
  for (let i = 0; i < options.jobs; i++) {
    const task = `task-${i % options.tasks}`;
    // Per task, the jobs cycle through the states.
    const round = Math.floor(i / options.tasks);
    const state = STATES[round % STATES.length];
    const ts = now - (options.jobs - i) * 10;
    yield* jobCommands({
      task,
      state,
      ts,
      version: 1 + (i % 3),
      priority: state === "waiting" && round % 5 === 0 ? 3 : 0,
      data: { i },
      result: { ok: true },
      error: ERRORS[round % ERRORS.length](i),
      attempt: state === "failed" ? 3 : undefined,
      maxAttempts: 3,
      delay: 3_600_000,
      runAt: now + 60_000,
      finishedOn: ts + 5,
    }, options.prefix).commands;
  }
  const minute = Math.floor(now / 60_000) * 60_000;
  for (let t = 0; t < options.tasks; t++) {
    const keys: string[] = [];
    const counts: string[] = [];
    for (let m = 0; m < 60; m++) {
      const bucket = minute - m * 60_000;
      keys.push(
        metricKey(`task-${t}`, "completed", bucket, options.prefix),
        metricKey(`task-${t}`, "failed", bucket, options.prefix),
      );
      counts.push(String(10 + m), String(m % 3));
    }
    // One script per task (its counters share its slot): 240 commands each sent alone were
    // most of a fill's commands, and most of its time.
    yield ["EVAL", SET_COUNTERS, String(keys.length), ...keys, ...counts, String(COUNTER_TTL_MS)];
  }
}

/** taskora keeps a minute's counter a day. */
const COUNTER_TTL_MS = 86_400_000;

/** Sets each key to its count (`ARGV[i]`), expiring after the last argument's ms. */
const SET_COUNTERS =
  "for i, key in ipairs(KEYS) do redis.call('SET', key, ARGV[i], 'PX', ARGV[#ARGV]) end";

/** Sends {@link fillCommands} through `client`, pipelined `batch` commands at a time. */
export async function fillRedis(client: CommandSender, options: FillOptions): Promise<void> {
  await sendPipelined(client, fillCommands(options), options.batch ?? 10_000);
}
