/**
 * The App source's schedules: listed, changed (paused, resumed) and removed
 * through the App's ScheduleManager (`app.schedules`), triggered through
 * the App itself; taskora's refusals in the catalogue's words.
 *
 * @module
 */

import { BoardError } from "../../errors.ts";
import { keepMasked } from "../../source/keep_masked.ts";
import { pausingOf } from "../../source/schedule_patch.ts";
import { scheduleNotFound } from "../../source/refusals.ts";
import type { SchedulePatch, ScheduleRecord, TriggerResult } from "../../source/types.ts";
import { decodeJobState } from "../../source/wire/decode.ts";
import { triggerThroughApp } from "../trigger.ts";
import type { AppApi } from "./app_api.ts";

/** Schedules, through the App's ScheduleManager. */
export class AppSchedules {
  readonly #api: AppApi;

  /** Reads and steers through `api`. */
  constructor(api: AppApi) {
    this.#api = api;
  }

  /** The App's schedules, with the state of each one's last job. */
  async listSchedules(): Promise<ScheduleRecord[]> {
    const list = await this.#api.app.schedules.list();
    const records = await Promise.all(list.map(async (info): Promise<ScheduleRecord> => {
      const { lastRun: _r, lastJobId: _j, ...config } = info.config as Record<string, unknown>;
      const state = info.lastJobId
        ? await this.#api.adapter.getState(info.config.task, info.lastJobId)
        : null;
      return {
        name: info.name,
        config: config as unknown as ScheduleRecord["config"],
        nextRun: info.nextRun,
        lastRun: info.lastRun,
        lastJobId: info.lastJobId,
        lastRunStatus: state ? decodeJobState(state) : null,
        paused: info.paused,
        declaredInCode: this.#api.declared.has(info.name),
      };
    }));
    return records.sort((a, b) => a.name.localeCompare(b.name));
  }

  async #schedule(name: string): Promise<ScheduleRecord> {
    const record = (await this.listSchedules()).find((s) => s.name === name);
    if (!record) throw scheduleNotFound(name);
    return record;
  }

  /** Runs a ScheduleManager call, its refusals in the catalogue's words. */
  async #steer(name: string, change: () => Promise<void>): Promise<ScheduleRecord> {
    await this.#schedule(name);
    try {
      await change();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new BoardError("INVALID_STATE", `taskora refused: ${message}`, { cause: error });
    }
    return await this.#schedule(name);
  }

  /** Dispatches one run through the App; see `trigger.ts`. */
  async triggerSchedule(name: string, idempotencyKey?: string): Promise<TriggerResult> {
    const record = await this.#schedule(name);
    return await triggerThroughApp(
      this.#api.app,
      this.#api.ledger,
      { name, task: record.config.task },
      idempotencyKey,
    );
  }

  /**
   * `schedules.update` (needs the App's scheduler running). taskora's update
   * writes the next run whatever the schedule's state, so a paused one is
   * paused again at once: it stays paused, as the Redis source keeps it.
   * Its next run is computed from now, never due at once, so no run starts
   * in between. `paused`: `schedules.pause`, or `schedules.resume` (which
   * needs the scheduler running too), after the change.
   */
  async updateSchedule(name: string, patch: SchedulePatch): Promise<ScheduleRecord> {
    const { change, paused } = pausingOf(patch);
    const schedules = this.#api.app.schedules;
    if (!change) {
      return await this.#steer(name, () => paused ? schedules.pause(name) : schedules.resume(name));
    }
    const { maskedKeys = [], ...rest } = change;
    const updates: Record<string, unknown> = rest;
    // taskora's update takes no null: an absent time zone is stored as none.
    if (change.timezone === null) updates.timezone = undefined;
    const { paused: wasPaused, config } = await this.#schedule(name);
    if (change.data !== undefined && maskedKeys.length > 0) {
      updates.data = keepMasked(config.data, change.data, maskedKeys, "data");
    }
    return await this.#steer(name, async () => {
      await schedules.update(name, updates);
      if (paused === false) await schedules.resume(name);
      else if (paused || wasPaused) await schedules.pause(name);
    });
  }

  /** `schedules.remove`. */
  async removeSchedule(name: string): Promise<void> {
    await this.#schedule(name);
    await this.#api.app.schedules.remove(name);
  }
}
