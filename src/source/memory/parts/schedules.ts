/**
 * The memory source's schedules: listed with their last run's state,
 * paused, resumed, triggered, changed and removed through the store
 * (`../schedule_actions.ts`).
 *
 * @module
 */

import { pausingOf } from "../../schedule_patch.ts";
import { triggerJobId } from "../../trigger_id.ts";
import type { SchedulePatch, ScheduleRecord, TriggerResult } from "../../types.ts";
import * as scheduleActions from "../schedule_actions.ts";
import type { MemoryStore } from "../store.ts";
import { scheduleOf } from "./reads.ts";

/** Schedules of the store. */
export class MemorySchedules {
  readonly #store: MemoryStore;

  /** Reads and changes `store`. */
  constructor(store: MemoryStore) {
    this.#store = store;
  }

  /** Every schedule, sorted by name, with the state of its last run's job. */
  listSchedules(): Promise<ScheduleRecord[]> {
    const names = [...this.#store.schedules.keys()].sort();
    return Promise.resolve(names.map((name) => scheduleOf(this.#store, name)));
  }

  /** Dispatches one run of a schedule now (once per idempotency key). */
  async triggerSchedule(name: string, idempotencyKey?: string): Promise<TriggerResult> {
    const jobId = await triggerJobId(name, idempotencyKey);
    return scheduleActions.triggerSchedule(this.#store, name, jobId);
  }

  /**
   * Changes a schedule, its next run recomputed unless it is paused; pauses
   * it, or resumes it from now.
   */
  updateSchedule(name: string, patch: SchedulePatch): Promise<ScheduleRecord> {
    return Promise.try(() => {
      const { change, paused } = pausingOf(patch);
      if (change) scheduleActions.updateSchedule(this.#store, name, change);
      if (paused === true) scheduleActions.pauseSchedule(this.#store, name);
      if (paused === false) scheduleActions.resumeSchedule(this.#store, name);
      return scheduleOf(this.#store, name);
    });
  }

  /** Deletes a schedule. */
  removeSchedule(name: string): Promise<void> {
    return Promise.try(() => scheduleActions.removeSchedule(this.#store, name));
  }
}
