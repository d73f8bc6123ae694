/**
 * The Redis source's schedules: listed with their last run's state, triggered, changed
 * (paused, resumed) and removed as taskora's ScheduleManager does.
 *
 * @module
 */

import type { SchedulePatch, ScheduleRecord, TriggerResult } from "../../types.ts";
import {
  pauseSchedule,
  removeSchedule,
  resumeSchedule,
  triggerSchedule,
  updateSchedule,
} from "../schedule_actions.ts";
import { forgetScheduleReads, listSchedules, ScheduleReads } from "../schedules.ts";
import { pausingOf } from "../../schedule_patch.ts";
import type { RedisContext } from "../context.ts";

/** Schedules, in Redis. */
export class RedisSchedules {
  readonly #redis: RedisContext;
  /** The schedules the last list read: unchanged ones are not decoded again. */
  readonly #reads = new ScheduleReads();

  /** Reads and steers through `redis`. */
  constructor(redis: RedisContext) {
    this.#redis = redis;
  }

  /** Every schedule, sorted by name. */
  async listSchedules(): Promise<ScheduleRecord[]> {
    await this.#redis.ready();
    const schedules = await listSchedules(
      this.#redis.connection,
      this.#redis.finishedStates,
      this.#reads,
      this.#redis.prefix,
    );
    this.#redis.recentIds.note(
      schedules.flatMap((s) => s.lastJobId ? [{ id: s.lastJobId, task: s.config.task }] : []),
    );
    return schedules;
  }

  /** Dispatches one run of a schedule now (once per idempotency key). */
  async triggerSchedule(name: string, idempotencyKey?: string): Promise<TriggerResult> {
    await this.#redis.ready();
    return await this.#written(() =>
      triggerSchedule(this.#redis.connection, name, idempotencyKey, this.#redis.prefix)
    );
  }

  /** Changes, pauses or resumes a schedule; see `schedule_actions.ts`. */
  async updateSchedule(name: string, patch: SchedulePatch): Promise<ScheduleRecord> {
    await this.#redis.ready();
    return await this.#written(() => this.#update(name, patch));
  }

  async #update(name: string, patch: SchedulePatch): Promise<ScheduleRecord> {
    const { change, paused } = pausingOf(patch);
    if (change) {
      const changed = await updateSchedule(
        this.#redis.connection,
        name,
        change,
        this.#redis.prefix,
      );
      if (paused === undefined) return changed;
    }
    return paused
      ? await pauseSchedule(this.#redis.connection, name, this.#redis.prefix)
      : await resumeSchedule(this.#redis.connection, name, this.#redis.prefix);
  }

  /** Deletes a schedule. */
  async removeSchedule(name: string): Promise<void> {
    await this.#redis.ready();
    await this.#written(() => removeSchedule(this.#redis.connection, name, this.#redis.prefix));
  }

  /**
   * Runs `write`, then forgets the cached schedule reads: the next list shows
   * it at once. Also when it failed: an unanswered write may have been made.
   */
  async #written<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } finally {
      forgetScheduleReads(this.#redis.connection, this.#redis.prefix);
    }
  }
}
