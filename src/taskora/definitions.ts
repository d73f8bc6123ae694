/**
 * What only the App knows about a task: its version, `since` and
 * configuration, and which schedules its code declares (taskora registers
 * those again at every `app.start()`, undoing board edits).
 *
 * @module
 */

import type { TaskDefinition } from "../contract/tasks.ts";
import { findTask, type TaskoraAppLike, type TaskoraTaskLike } from "./app.ts";

function numberOr(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

function backoffOf(backoff: unknown): string | null {
  if (backoff === undefined || backoff === null) return null;
  return typeof backoff === "string" ? backoff : "custom";
}

/**
 * A task's definition, as the contract carries it. A task the App registers
 * as a contract only (`app.register`, no handler) runs in another process,
 * whose own options decide how: taskora fills this one's concurrency,
 * singleton, key limit, TTL and collect with defaults no worker uses, so
 * they read as unknown (null, not a singleton), never as the workers'.
 */
export function definitionOf(task: TaskoraTaskLike, schedules: string[]): TaskDefinition {
  const declared = definitionAsDeclared(task, schedules);
  if (declared.hasHandler) return declared;
  return { ...declared, concurrency: null, singleton: false, concurrencyLimit: null, ttl: null };
}

function definitionAsDeclared(task: TaskoraTaskLike, schedules: string[]): TaskDefinition {
  const { config } = task;
  return {
    name: task.name,
    version: task.version,
    since: task.since,
    migrations: task.migrations?.size ?? 0,
    concurrency: numberOr(config.concurrency),
    timeout: numberOr(config.timeout),
    retry: config.retry
      ? {
        attempts: numberOr(config.retry.attempts),
        backoff: backoffOf(config.retry.backoff),
        delay: numberOr(config.retry.delay),
        maxDelay: numberOr(config.retry.maxDelay),
        jitter: typeof config.retry.jitter === "boolean" ? config.retry.jitter : null,
      }
      : null,
    stall: config.stall
      ? { interval: numberOr(config.stall.interval), maxCount: numberOr(config.stall.maxCount) }
      : null,
    singleton: config.singleton === true,
    concurrencyLimit: numberOr(config.concurrencyLimit),
    ttl: config.ttl ? { maxMs: config.ttl.maxMs, onExpire: config.ttl.onExpire } : null,
    collect: config.collect
      ? {
        delayMs: config.collect.delayMs,
        maxSize: config.collect.maxSize,
        maxWaitMs: config.collect.maxWaitMs,
      }
      : null,
    hasHandler: task.hasHandler !== false,
    schedules,
    inputSchema: task.inputSchema !== undefined,
  };
}

/**
 * The schedules an App's code declares (`app.schedule(...)` and a task's
 * `schedule` option). taskora keeps them in a list it empties at
 * `app.start()`, so the board notes them whenever it looks, from its
 * creation on: create the board before `app.start()` for them to be known.
 */
export class DeclaredSchedules {
  readonly #app: TaskoraAppLike;
  /** Schedule name → task. */
  readonly #seen = new Map<string, string>();

  /** Notes what the App declares now. */
  constructor(app: TaskoraAppLike) {
    this.#app = app;
    this.#note();
  }

  #note(): void {
    const pending = (this.#app as unknown as { pendingSchedules?: unknown }).pendingSchedules;
    if (!Array.isArray(pending)) return;
    for (const entry of pending) {
      const { name, config } = (entry ?? {}) as { name?: unknown; config?: { task?: unknown } };
      if (typeof name === "string" && typeof config?.task === "string") {
        this.#seen.set(name, config.task);
      }
    }
  }

  /** Whether the code declares schedule `name`. */
  has(name: string): boolean {
    this.#note();
    return this.#seen.has(name);
  }

  /** The declared schedules that run `task`, sorted. */
  forTask(task: string): string[] {
    this.#note();
    return [...this.#seen].filter(([, t]) => t === task).map(([name]) => name).sort();
  }
}

/**
 * The definition of an App's task; null for a task of the store that this
 * App does not register (another service's).
 */
export function appTaskDefinition(
  app: TaskoraAppLike,
  declared: DeclaredSchedules,
  name: string,
): TaskDefinition | null {
  const task = findTask(app, name);
  return task ? definitionOf(task, declared.forTask(name)) : null;
}
