/**
 * The history recorder as a consumer of the change feed: on the leader,
 * every batch of task events goes to the recorder (`history/recorder.ts`),
 * which reads each ending job once and writes its attempts with the feed's
 * last ids in one store write. Exactly once across a leader change: the
 * feed saves its ids only after this consumer took the batch, and the
 * store's writes are keyed by job and stream entry, so a batch a dead
 * leader had written is written again by the next one and changes nothing.
 *
 * A write that fails (the history's Redis or PostgreSQL away) fails the
 * batch: the feed does not save its ids, reads the same entries again after
 * its back-off, and recording resumes where it stopped, without loss or
 * duplicates while taskora still holds the events. Its lag and write errors
 * are on `/metrics`; its paced pass trims the store past its age limit.
 *
 * @module
 */

import type { Recorder, TaskEvent as RecordedEvent } from "../history/recorder.ts";
import type { HistoryStore } from "../history/store.ts";
import type { EventBatch, TaskEvent } from "../source/types.ts";
import type { FeedConsumer } from "./change_feed.ts";

/** How often the leader trims the history past its age limit, ms. */
export const HISTORY_TRIM_EVERY_MS = 60_000;

/** The recorder's state, as `/metrics` reads it. */
export interface RecorderStatus {
  /** How far behind the events the history is, in seconds (0 when caught up or not leading). */
  lagSeconds(): number;
  /** Batches whose write failed since the board started. */
  writeErrors(): number;
}

/** A stream entry as the recorder reads it: its fields as taskora wrote them. */
function recordedEvent(event: TaskEvent & { id: string }): RecordedEvent {
  const fields: Record<string, string> = { event: event.event, jobId: event.jobId };
  for (const [name, value] of Object.entries(event.fields)) {
    if (value === undefined) continue;
    fields[name] = typeof value === "string" ? value : JSON.stringify(value);
  }
  return { task: event.task, id: event.id, fields };
}

/** The feed's consumer that records the history; see the module documentation. */
export class HistoryRecording implements FeedConsumer, RecorderStatus {
  readonly #recorder: Recorder;
  readonly #store: HistoryStore;
  readonly #clock: () => number;
  /** The lag the last written batch had, ms. */
  #lagMs = 0;
  /** The time of the oldest event taken but not written, while writes fail. */
  #behindSince: number | null = null;
  #errors = 0;
  #trimmedAt = -Infinity;
  /** Whether the store said no summary is left to index by job id. */
  #jobIdsIndexed = false;

  /** Records through `recorder` into `store` (trimmed on the pass), lag measured on `clock`. */
  constructor(recorder: Recorder, store: HistoryStore, clock: () => number) {
    this.#recorder = recorder;
    this.#store = store;
    this.#clock = clock;
  }

  /** Records the batch's entries that carry a stream id, with the batch's last ids. */
  async take(batch: EventBatch): Promise<void> {
    const events = batch.events.filter((event): event is TaskEvent & { id: string } =>
      event.id !== undefined
    );
    if (events.length === 0) {
      if (this.#behindSince === null) this.#lagMs = 0;
      return;
    }
    try {
      await this.#recorder.record(events.map(recordedEvent), Object.fromEntries(batch.positions));
    } catch (error) {
      this.#errors++;
      this.#behindSince ??= Math.min(...events.map((event) => event.at));
      throw error;
    }
    this.#behindSince = null;
    this.#lagMs = Math.max(0, this.#clock() - Math.max(...events.map((event) => event.at)));
  }

  /**
   * Indexes by job id a batch of what a history written before that index
   * holds, each pass until none is left; trims the store past its age limit,
   * once a {@link HISTORY_TRIM_EVERY_MS}.
   */
  async pass(): Promise<void> {
    if (!this.#jobIdsIndexed) this.#jobIdsIndexed = !await this.#store.indexJobIds();
    const now = this.#clock();
    if (now - this.#trimmedAt < HISTORY_TRIM_EVERY_MS) return;
    this.#trimmedAt = now;
    await this.#store.trim(now);
  }

  /** Not leading any more: this board records nothing, so it lags nothing. */
  stopped(): void {
    this.#lagMs = 0;
    this.#behindSince = null;
  }

  lagSeconds(): number {
    const behindMs = this.#behindSince === null ? this.#lagMs : this.#clock() - this.#behindSince;
    return Math.max(0, behindMs) / 1000;
  }

  writeErrors(): number {
    return this.#errors;
  }
}
