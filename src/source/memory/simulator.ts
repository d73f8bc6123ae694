/**
 * A workload that makes a memory store behave like a small taskora deployment
 * (the live demo of `deno task start` without Redis): tasks dispatched at
 * their own rates, workers moving jobs waiting → active → completed / failed
 * with retries and backoff, progress and logs, cancellations, TTL expiries,
 * workflows whose node jobs really run, and schedules that fire.
 *
 * One `setInterval` drives {@link Simulator.tick}; tests call `tick()`
 * themselves with a fake clock instead, and pass a seed for repeatable runs.
 *
 * @module
 */

import { CronExpressionParser } from "cron-parser";
import type { JobState } from "../types.ts";
import { type Dice, dice, type RandomFn, seededRandom } from "./random.ts";
import {
  SCHEDULE_PROFILES,
  TASK_PROFILES,
  type TaskProfile,
  WORKFLOW_SHAPES,
  type WorkflowShape,
} from "./profiles.ts";
import { JOB_LOCK_RENEW_MS, JOB_LOCK_TTL_MS, type MemoryStore, type StoredJob } from "./store.ts";
import { cancelWorkflow } from "./workflow_actions.ts";
import {
  advanceWorkflow,
  createWorkflow,
  failWorkflow,
  type NodeDispatch,
  terminalNodes,
} from "./workflows.ts";
import { systemTimers, type TimerId, type Timers } from "../../timers.ts";

/** Options of the workload simulator. */
export interface SimulatorOptions {
  /** A seed (repeatable runs) or a random source; `Math.random` by default. */
  random?: number | RandomFn;
  /** Milliseconds between ticks of the timer; 0 runs no timer (call `tick()` yourself). Default 250. */
  tickMs?: number;
  /**
   * Pre-fill 24 h of throughput, a few hundred finished jobs, a backlog,
   * running workflows and schedules, so the dashboard is not empty. Default true.
   */
  history?: boolean;
}

/** One running attempt: how it will end and when. */
interface Attempt {
  job: StoredJob;
  profile: TaskProfile;
  startedAt: number;
  endsAt: number;
  /** The error it will fail with, or null when it succeeds. */
  error: string | null;
  lastProgressAt: number;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** A tick never simulates more than this much time (after a suspended process). */
const MAX_STEP_MS = 5_000;
/** taskora's scheduler leader lock TTL (`lockTtl`), ms. */
const SCHEDULER_LOCK_TTL_MS = 30_000;
const STAGES = ["download", "decode", "process", "encode", "upload"];

/** Drives a store like a running taskora deployment. */
export class Simulator {
  /** The store it writes to. */
  readonly store: MemoryStore;
  #dice: Dice;
  #tickMs: number;
  readonly #timers: Timers;
  #timer: TimerId | undefined;
  #running = new Map<string, Attempt>();
  #lastTick: number;
  /** The simulated scheduler's token in the leader lock (random, as taskora's is). */
  readonly #schedulerToken = crypto.randomUUID();

  /**
   * A simulator on `store`; call {@link prefill} and {@link start} to run it.
   * Its timer runs on `timers` (tests pass fake ones).
   */
  constructor(store: MemoryStore, options: SimulatorOptions = {}, timers: Timers = systemTimers) {
    this.store = store;
    const random = options.random;
    this.#dice = dice(
      typeof random === "number" ? seededRandom(random) : random ?? Math.random,
    );
    this.#tickMs = options.tickMs ?? 250;
    this.#timers = timers;
    this.#lastTick = store.now();
  }

  /** Starts the timer (no-op when `tickMs` is 0 or it already runs). */
  start(): void {
    if (this.#tickMs <= 0 || this.#timer !== undefined) return;
    this.#timer = this.#timers.setInterval(() => {
      // A bug in the demo workload must not take the board down with it.
      try {
        this.tick();
      } catch (error) {
        console.error("queue-board simulator: tick failed", error);
      }
    }, this.#tickMs);
  }

  /** Stops the timer. */
  stop(): void {
    if (this.#timer !== undefined) this.#timers.clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** Whether the timer runs. */
  get running(): boolean {
    return this.#timer !== undefined;
  }

  /**
   * Advances the workload to the store's current time: fires due schedules,
   * dispatches new jobs, promotes due delayed jobs, finishes attempts whose
   * time has come, claims work for free worker slots, and now and then
   * cancels a job or starts a workflow.
   */
  tick(): void {
    const now = this.store.now();
    const step = Math.min(MAX_STEP_MS, Math.max(0, now - this.#lastTick));
    this.#lastTick = now;
    this.#fireSchedules(now);
    for (const profile of TASK_PROFILES) {
      const expected = profile.perMinute * step / MINUTE;
      const count = Math.floor(expected) + (this.#dice.chance(expected % 1) ? 1 : 0);
      for (let i = 0; i < count; i++) this.#dispatch(profile);
    }
    if (this.#dice.chance(step / (4 * MINUTE))) this.#burst();
    if (this.#dice.chance(step / (20_000))) this.startWorkflow();
    if (this.#dice.chance(step / (15_000))) this.#cancelSomething();
    for (const profile of TASK_PROFILES) this.#work(profile, now);
  }

  /** Dispatches one job of a task, as its producers would. */
  #dispatch(profile: TaskProfile, data: unknown = profile.data(this.#dice)): StoredJob {
    const d = this.#dice;
    const expiring = d.chance(profile.expiringShare);
    const delay = expiring
      ? d.int(3_000, 8_000)
      : d.chance(profile.delayShare)
      ? d.int(profile.delayMs[0], profile.delayMs[1])
      : 0;
    const now = this.store.now();
    return this.store.enqueue(profile.name, {
      id: d.uuid(),
      data,
      version: d.weighted(profile.versions),
      priority: d.chance(profile.priorityShare) ? d.int(1, 10) : 0,
      maxAttempts: profile.maxAttempts,
      delay,
      expireAt: expiring ? now + delay - 1_000 : null,
    });
  }

  /** Starts a workflow of a random shape (chain, group, chord, nested); returns its id. */
  startWorkflow(): string {
    return this.#startWorkflow(this.#dice.pick(WORKFLOW_SHAPES));
  }

  #startWorkflow(shape: WorkflowShape): string {
    const d = this.#dice;
    const id = d.uuid();
    const nodes = shape.nodes.map((node) => {
      const profile = this.#profile(node.task);
      return {
        taskName: node.task,
        deps: node.deps,
        jobId: d.uuid(),
        _v: profile.versions[profile.versions.length - 1][0],
        ...(node.deps.length === 0 ? { data: JSON.stringify(profile.data(d)) } : {}),
      };
    });
    const roots = createWorkflow(this.store, id, {
      nodes,
      terminal: terminalNodes(nodes),
      name: shape.name,
    });
    this.#dispatchNodes(id, roots);
    return id;
  }

  /**
   * Fills the store with a day of history: throughput counters, finished jobs
   * of every state, a backlog, delayed jobs, one running workflow of each
   * shape and the schedules.
   */
  prefill(): void {
    const now = this.store.now();
    this.#prefillThroughput(now);
    for (const profile of TASK_PROFILES) {
      const finished = Math.round(20 + profile.perMinute * 2);
      for (let i = 0; i < finished; i++) this.#pastJob(profile, now - this.#dice.int(1, 3 * HOUR));
      for (let i = 0; i < 3; i++) this.#dispatch(profile);
    }
    for (const shape of WORKFLOW_SHAPES) this.#startWorkflow(shape);
    this.#prefillSchedules(now);
  }

  // ── workers ─────────────────────────────────────────────────────────

  #work(profile: TaskProfile, now: number): void {
    const task = profile.name;
    this.store.promoteDue(task);
    const queue = this.store.tasks.get(task);
    if (!queue) return;
    for (const id of [...queue.active]) {
      const attempt = this.#running.get(id);
      if (!attempt) {
        // Active when the simulator started (an imported keyspace): run it from now.
        const job = queue.jobs.get(id);
        if (job) this.#begin(profile, job, now);
        continue;
      }
      if (attempt.job.cancelledAt !== null) {
        this.#running.delete(id);
        this.store.log(task, id, {
          level: "warn",
          message: "stopped: cancel requested",
          timestamp: now,
        });
        this.store.finishCancel(task, id);
        continue;
      }
      if (now >= attempt.endsAt) {
        this.#running.delete(id);
        this.#finish(attempt, now);
        continue;
      }
      const lock = queue.locks.get(id);
      if (lock?.expiresAt && lock.expiresAt - now <= JOB_LOCK_TTL_MS - JOB_LOCK_RENEW_MS) {
        this.store.extendLock(task, id);
      }
      if (profile.progress && now - attempt.lastProgressAt >= 1_000) {
        attempt.lastProgressAt = now;
        this.store.setProgress(
          task,
          id,
          progressAt(profile, attempt.startedAt, attempt.endsAt, now),
        );
      }
    }
    while (queue.active.length < profile.concurrency) {
      const job = this.store.claim(task);
      if (!job) break;
      this.#begin(profile, job, now);
    }
  }

  #begin(profile: TaskProfile, job: StoredJob, now: number): void {
    const d = this.#dice;
    const duration = d.int(profile.durationMs[0], profile.durationMs[1]);
    const error = d.chance(profile.failRate) ? d.pick(profile.errors)(d) : null;
    this.#running.set(job.id, {
      job,
      profile,
      startedAt: now,
      // A failing attempt gives up part-way.
      endsAt: now + (error ? Math.round(duration * d.random()) : duration),
      error,
      lastProgressAt: now,
    });
    const line = profile.startLog(d, job.data);
    this.store.log(profile.name, job.id, {
      ...line,
      message: job.attempt > 1 ? `${line.message} (attempt ${job.attempt})` : line.message,
      timestamp: now,
    });
    if (profile.progress) {
      this.store.setProgress(profile.name, job.id, progressAt(profile, now, now + duration, now));
    }
  }

  #finish(attempt: Attempt, now: number): void {
    const { job, profile, error } = attempt;
    const task = profile.name;
    if (error === null) {
      const result = profile.result(this.#dice, job.data);
      if (profile.progress) {
        this.store.setProgress(task, job.id, progressAt(profile, attempt.startedAt, now, now));
      }
      this.store.log(task, job.id, {
        level: "info",
        message: "done",
        meta: { durationMs: now - attempt.startedAt },
        timestamp: now,
      });
      this.store.complete(task, job.id, result);
      if (job.workflow) {
        const next = advanceWorkflow(
          this.store,
          job.workflow.id,
          job.workflow.nodeIndex,
          JSON.stringify(result),
        );
        this.#dispatchNodes(job.workflow.id, next);
      }
      return;
    }
    this.store.log(task, job.id, {
      level: "error",
      message: error,
      meta: { attempt: job.attempt },
      timestamp: now,
    });
    if (job.attempt < job.maxAttempts) {
      this.store.fail(task, job.id, error, profile.backoffMs * 2 ** (job.attempt - 1));
      return;
    }
    this.store.fail(task, job.id, error, null);
    if (job.workflow) {
      for (const ref of failWorkflow(this.store, job.workflow.id, job.workflow.nodeIndex, error)) {
        this.store.cancel(ref.task, ref.jobId, "workflow failed");
      }
    }
  }

  #dispatchNodes(workflowId: string, nodes: NodeDispatch[]): void {
    for (const node of nodes) {
      const profile = this.#profile(node.taskName);
      this.store.enqueue(node.taskName, {
        id: node.jobId,
        data: JSON.parse(node.data),
        version: node._v,
        maxAttempts: profile.maxAttempts,
        workflow: { id: workflowId, nodeIndex: node.nodeIndex },
      });
    }
  }

  // ── disturbances ──────────────────────────────────────────────────

  #burst(): void {
    const profile = this.#dice.pick(TASK_PROFILES.filter((p) => p.durationMs[1] < 3_000));
    const count = this.#dice.int(15, 50);
    for (let i = 0; i < count; i++) this.#dispatch(profile);
  }

  #cancelSomething(): void {
    const d = this.#dice;
    const queue = this.store.tasks.get(d.pick(TASK_PROFILES).name);
    if (!queue) return;
    if (d.chance(0.1)) {
      const running = [...this.store.workflows].filter(([, hash]) => hash.state === "running");
      if (running.length > 0) {
        const [id] = d.pick(running);
        cancelWorkflow(this.store, id, "cancelled by operator", { stampCancelledAt: false });
        return;
      }
    }
    const candidates = [
      ...queue.wait,
      ...queue.prioritized.range(0, 20),
      ...queue.delayed.range(0, 20),
      ...(d.chance(0.3) ? queue.active : []),
    ].filter((id) => queue.jobs.get(id)?.workflow === null);
    if (candidates.length === 0) return;
    const reason = d.pick([
      "operator request",
      "superseded by a newer dispatch",
      "customer unsubscribed",
    ]);
    this.store.cancel(queue.name, d.pick(candidates), reason);
  }

  // ── schedules ───────────────────────────────────────────────────────

  #fireSchedules(now: number): void {
    // The one scheduler leads: it takes or renews the leader lock each tick.
    this.store.schedulerLock = {
      token: this.#schedulerToken,
      expiresAt: now + SCHEDULER_LOCK_TTL_MS,
    };
    for (const schedule of this.store.schedules.values()) {
      if (schedule.nextRun === null || schedule.nextRun > now) continue;
      const stored = JSON.parse(schedule.json) as Record<string, unknown> & {
        task: string;
        every?: number;
        cron?: string;
        timezone?: string;
      };
      const profile = TASK_PROFILES.find((p) => p.name === stored.task);
      const job = profile
        ? this.#dispatch(profile, stored.data ?? null)
        // A task no simulated worker runs: the job is dispatched and waits.
        : this.store.enqueue(stored.task, { id: this.#dice.uuid(), data: stored.data ?? null });
      stored.lastRun = now;
      stored.lastJobId = job.id;
      schedule.json = JSON.stringify(stored);
      schedule.nextRun = nextRun(stored, now);
    }
  }

  #prefillSchedules(now: number): void {
    for (const { name, config, paused } of SCHEDULE_PROFILES) {
      const stored: Record<string, unknown> = { ...config };
      const profile = this.#profile(config.task);
      const lastRun = previousRun(config, now);
      if (lastRun !== null && !paused) {
        const job = this.#pastJob(
          profile,
          lastRun + this.#dice.int(500, 5_000),
          "completed",
          config.data,
        );
        stored.lastRun = lastRun;
        stored.lastJobId = job.id;
      }
      const next = config.every && lastRun !== null ? lastRun + config.every : nextRun(config, now);
      this.store.schedules.set(name, {
        json: JSON.stringify(stored),
        nextRun: paused ? null : next,
      });
    }
  }

  // ── history ───────────────────────────────────────────────────────

  #prefillThroughput(now: number): void {
    const d = this.#dice;
    const current = Math.floor(now / MINUTE) * MINUTE;
    // One incident: a stretch of failures a few hours ago.
    const incidentStart = current - d.int(3 * HOUR, 8 * HOUR);
    const incidentEnd = incidentStart + d.int(10, 30) * MINUTE;
    for (let minute = current - DAY + MINUTE; minute < current; minute += MINUTE) {
      // A daily curve: busier in the (UTC) afternoon, quiet at night.
      const daily = 0.65 + 0.35 * Math.sin(((minute % DAY) / DAY) * 2 * Math.PI - Math.PI / 2);
      for (const profile of TASK_PROFILES) {
        const mean = profile.perMinute * daily * (0.8 + 0.4 * d.random());
        const permanentFailRate = profile.failRate ** profile.maxAttempts;
        const incident = minute >= incidentStart && minute < incidentEnd &&
          profile.name === "sync-inventory";
        const failed = Math.round(
          mean * permanentFailRate + (incident ? d.int(3, 9) : 0) +
            (d.chance(profile.failRate) ? 1 : 0),
        );
        const completed = Math.max(0, Math.round(mean - failed));
        if (completed > 0) this.store.countFinished(profile.name, "completed", minute, completed);
        if (failed > 0) this.store.countFinished(profile.name, "failed", minute, failed);
      }
    }
  }

  /** A job that ran and finished in the past (directly into a finished set). */
  #pastJob(
    profile: TaskProfile,
    finishedAt: number,
    forced?: JobState,
    data: unknown = profile.data(this.#dice),
  ): StoredJob {
    const d = this.#dice;
    const state: JobState = forced ??
      d.weighted([["completed", 80], ["failed", 12], ["cancelled", 4], ["expired", 4]] as const);
    const duration = d.int(profile.durationMs[0], profile.durationMs[1]);
    const createdAt = finishedAt - duration - d.int(10, 5_000);
    const ran = state === "completed" || state === "failed";
    const attempt = state === "failed"
      ? profile.maxAttempts
      : ran
      ? d.weighted([[1, 8], [2, 1]])
      : 1;
    const error = state === "failed" ? d.pick(profile.errors)(d) : null;
    const job: StoredJob = {
      id: d.uuid(),
      task: profile.name,
      state,
      data,
      result: state === "completed" ? profile.result(d, data) : null,
      error,
      progress: ran && profile.progress === "percent"
        ? (state === "completed" ? 100 : d.int(5, 95))
        : null,
      attempt: Math.min(attempt, profile.maxAttempts),
      maxAttempts: profile.maxAttempts,
      version: d.weighted(profile.versions),
      priority: 0,
      createdAt,
      processedAt: ran ? finishedAt - duration : null,
      finishedAt,
      runAt: null,
      cancelledAt: null,
      cancelReason: state === "cancelled" ? "operator request" : null,
      expireAt: state === "expired" ? finishedAt - d.int(100, 2_000) : null,
      stalledCount: 0,
      workflow: null,
      logs: ran
        ? [
          { ...profile.startLog(d, data), timestamp: finishedAt - duration },
          error ? { level: "error", message: error, meta: { attempt }, timestamp: finishedAt } : {
            level: "info",
            message: "done",
            meta: { durationMs: duration },
            timestamp: finishedAt,
          },
        ]
        : [],
    };
    this.store.putJob(job);
    this.store.addFinished(
      job,
      state as "completed" | "failed" | "cancelled" | "expired",
      finishedAt,
    );
    return job;
  }

  #profile(task: string): TaskProfile {
    const profile = TASK_PROFILES.find((p) => p.name === task);
    if (!profile) throw new Error(`No simulated task "${task}"`);
    return profile;
  }
}

/** Progress of an attempt at `now`: a percentage, or a stage object. */
function progressAt(
  profile: TaskProfile,
  startedAt: number,
  endsAt: number,
  now: number,
): number | Record<string, unknown> {
  const fraction = Math.min(1, Math.max(0, (now - startedAt) / Math.max(1, endsAt - startedAt)));
  if (profile.progress !== "stages") return Math.round(fraction * 100);
  const stage = Math.min(STAGES.length - 1, Math.floor(fraction * STAGES.length));
  return {
    stage: STAGES[stage],
    step: stage + 1,
    of: STAGES.length,
    percent: Math.round(fraction * 100),
  };
}

/** The next run of a schedule after `now`: every-interval or cron (with its timezone). */
function nextRun(
  config: { every?: number; cron?: string; timezone?: string },
  now: number,
): number | null {
  if (config.every) return now + config.every;
  if (!config.cron) return null;
  return CronExpressionParser.parse(config.cron, {
    currentDate: new Date(now),
    tz: config.timezone,
  }).next().getTime();
}

/** The last run of a schedule before `now`, for pre-filled history. */
function previousRun(
  config: { every?: number; cron?: string; timezone?: string },
  now: number,
): number | null {
  if (config.every) return now - config.every + Math.floor(config.every / 3);
  if (!config.cron) return null;
  return CronExpressionParser.parse(config.cron, {
    currentDate: new Date(now),
    tz: config.timezone,
  }).prev().getTime();
}
