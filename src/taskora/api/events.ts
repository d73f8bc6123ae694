/**
 * The App source's events: every job event of the App's tasks, from one
 * adapter subscription shared by all listeners.
 *
 * @module
 */

import type { TaskEvent } from "../../source/types.ts";
import { decodeEventFields } from "../../source/wire/event_fields.ts";
import type { AppApi } from "./app_api.ts";

/** The App's job events, one subscription for every listener. */
export class AppEvents {
  readonly #api: AppApi;
  readonly #listeners = new Set<(event: TaskEvent) => void>();
  #unsubscribe: Promise<() => Promise<void>> | null = null;

  /** Reads and steers through `api`. */
  constructor(api: AppApi) {
    this.#api = api;
  }

  /** Every job event of the App's tasks, from one adapter subscription shared by all listeners. */
  subscribe(listener: (event: TaskEvent) => void): () => void {
    this.#listeners.add(listener);
    this.#unsubscribe ??= this.#api.adapter.subscribe(this.#api.tasks(), (raw) => {
      const event: TaskEvent = {
        task: raw.task,
        event: raw.event,
        jobId: raw.jobId,
        fields: decodeEventFields(raw.fields),
        at: Date.now(),
      };
      for (const l of this.#listeners) l(event);
    });
    return () => {
      this.#listeners.delete(listener);
      if (this.#listeners.size === 0) this.#stop();
    };
  }

  #stop(): void {
    const pending = this.#unsubscribe;
    this.#unsubscribe = null;
    pending?.then((off) => off()).catch(() => {});
  }

  /** Stops the event subscription; the App is the host's to close. */
  close(): Promise<void> {
    this.#listeners.clear();
    this.#stop();
    return Promise.resolve();
  }
}
