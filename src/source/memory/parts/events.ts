/**
 * The memory source's events: what the store writes to its streams, decoded
 * as the Redis source decodes a stream entry.
 *
 * @module
 */

import type { TaskEvent } from "../../types.ts";
import { decodeEventFields } from "../../wire/event_fields.ts";
import type { MemoryStore } from "../store.ts";

/** The store's events, to every listener. */
export class MemoryEvents {
  readonly #store: MemoryStore;

  /** Reads and changes `store`. */
  constructor(store: MemoryStore) {
    this.#store = store;
  }

  /**
   * Every event the store writes from now on, its fields decoded as the
   * Redis source decodes a stream entry. Delivered a microtask later, as a
   * Redis reader would deliver it after the write, so a listener never runs
   * in the middle of a transition; a listener that throws is logged and does
   * not stop the others.
   */
  subscribe(listener: (event: TaskEvent) => void): () => void {
    let subscribed = true;
    const unsubscribe = this.#store.subscribe((event) => {
      const copy: TaskEvent = { ...event, fields: decodeEventFields(event.fields) };
      queueMicrotask(() => {
        if (!subscribed) return;
        try {
          listener(copy);
        } catch (error) {
          console.error("queue-board memory source: an event listener threw", error);
        }
      });
    });
    return () => {
      subscribed = false;
      unsubscribe();
    };
  }
}
