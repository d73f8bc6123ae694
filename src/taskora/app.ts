/**
 * The taskora App as the board sees it: duck-typed, because taskora is not
 * a dependency of this module (an App from any taskora 0.5 build fits).
 * Only what the board reads or calls is named here.
 *
 * @module
 */

/** taskora's retry options (`retry` of a task). */
export interface TaskoraRetryConfig {
  attempts?: number;
  backoff?: unknown;
  delay?: number;
  maxDelay?: number;
  jitter?: boolean;
  retryOn?: unknown;
  noRetryOn?: unknown;
}

/** A task registered on the App (`app.task(...)`), as `getRegisteredTasks()` yields it. */
export interface TaskoraTaskLike {
  readonly name: string;
  /** The version jobs are dispatched with (`_v`). */
  readonly version: number;
  /** The oldest `_v` a worker still runs (older jobs fail). */
  readonly since: number;
  /** Whether this process has the handler (false for `register(contract)` only). */
  readonly hasHandler?: boolean;
  /** Resolved configuration. */
  readonly config: {
    concurrency?: number;
    timeout?: number;
    retry?: TaskoraRetryConfig;
    stall?: { interval?: number; maxCount?: number };
    singleton?: boolean;
    concurrencyLimit?: number;
    ttl?: { maxMs: number; onExpire: string };
    collect?: { key: unknown; delayMs: number; maxSize: number; maxWaitMs: number };
  };
  /** Number-keyed migration functions. */
  readonly migrations?: { size: number };
  /** The task's input schema (a Standard Schema), when it declares one. */
  readonly inputSchema?: { "~standard": { validate(value: unknown): unknown } };
  /** Dispatches one job; `id` is its job id, `enqueued` false when deduplication refused it. */
  dispatch(data: unknown, options?: Record<string, unknown>): TaskoraResultHandle;
}

/** What `task.dispatch()` returns: awaitable until the job is enqueued. */
export interface TaskoraResultHandle extends PromiseLike<unknown> {
  readonly id: string;
  enqueued?: boolean;
  existingId?: string;
}

/** A schedule as `app.schedules.list()` answers it. */
export interface TaskoraScheduleInfo {
  name: string;
  config: Record<string, unknown> & { task: string };
  nextRun: number | null;
  lastRun: number | null;
  lastJobId: string | null;
  paused: boolean;
}

/** The App's public schedule manager. */
export interface TaskoraScheduleManager {
  list(): Promise<TaskoraScheduleInfo[]>;
  pause(name: string): Promise<void>;
  resume(name: string): Promise<void>;
  update(name: string, updates: Record<string, unknown>): Promise<void>;
  remove(name: string): Promise<void>;
  trigger(name: string): Promise<TaskoraResultHandle> | TaskoraResultHandle;
}

/** A job as taskora's Inspector answers it. */
export interface TaskoraJobInfo {
  id: string;
  task: string;
  state: string;
  data: unknown;
  result?: unknown;
  error?: string;
  progress?: number | Record<string, unknown>;
  logs: { level: string; message: string; meta?: unknown; timestamp: number }[];
  attempt: number;
  version: number;
  timestamp: number;
  processedOn?: number;
  finishedOn?: number;
}

/** taskora's Inspector (`app.inspect()`). */
export interface TaskoraInspector {
  find(jobId: string): Promise<TaskoraJobInfo | null>;
  stats(options?: { task?: string }): Promise<Record<string, number>>;
}

/** The App (`createTaskora(...)`): the fields the board uses. */
export interface TaskoraAppLike {
  readonly adapter: object;
  readonly schedules: TaskoraScheduleManager;
  readonly deadLetters: {
    retry(task: string, jobId: string): Promise<boolean>;
    retryAll(options?: { task?: string }): Promise<number>;
  };
  task(...args: never[]): unknown;
  inspect(): TaskoraInspector;
  getRegisteredTasks(): Iterable<TaskoraTaskLike>;
}

/**
 * A taskora App (what `createTaskora()` returns), as `createBoard` recognises
 * it: taskora is not a dependency, so any object with these members is
 * taken for one.
 */
export interface TaskoraApp {
  /** taskora's adapter (`redisAdapter(...)` or `memoryAdapter()`). */
  readonly adapter: object;
  /** The schedule manager (`app.schedules`). */
  readonly schedules: object;
  /** Registers a task. */
  task(...args: never[]): unknown;
  /** taskora's Inspector. */
  inspect(): unknown;
  /** The registered tasks. */
  getRegisteredTasks(): Iterable<unknown>;
}

/**
 * Whether `value` is a taskora App: an object with `task`, `inspect` and
 * `getRegisteredTasks` functions, a `schedules` manager and an `adapter`.
 * A {@link TaskSource}-shaped object never has all of them.
 */
export function isTaskoraApp(value: unknown): value is TaskoraAppLike {
  if (typeof value !== "object" || value === null) return false;
  const app = value as Record<string, unknown>;
  return typeof app.task === "function" && typeof app.inspect === "function" &&
    typeof app.getRegisteredTasks === "function" && typeof app.schedules === "object" &&
    app.schedules !== null && typeof app.adapter === "object" && app.adapter !== null;
}

/** The App's task named `name`, or undefined. */
export function findTask(app: TaskoraAppLike, name: string): TaskoraTaskLike | undefined {
  for (const task of app.getRegisteredTasks()) {
    if (task.name === name) return task;
  }
  return undefined;
}
