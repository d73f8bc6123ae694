/**
 * The memory source's alert states and history: what Redis keeps for every
 * board (`../redis/alerts.ts`), in the process, with the same bounds. Values
 * are copied in and out, so no caller shares an object with another.
 *
 * @module
 */

import type { AlertHistoryEntry, AlertState, AlertStatus } from "../../contract/alerts.ts";
import { checkAlertStateCount } from "../alert_states_cap.ts";

/** The alerts' memory of one memory store. */
export class AlertMemory {
  #states: AlertState[] = [];
  #asOf: number | null = null;
  /** Newest first. */
  #history: AlertHistoryEntry[] = [];

  /** The states last written, with when they were evaluated. */
  readStatus(): AlertStatus {
    return { asOf: this.#asOf, states: structuredClone(this.#states) };
  }

  /** Replaces the states (refused whole above the cap), evaluated at `asOf`. */
  writeStates(states: readonly AlertState[], asOf: number | null): void {
    checkAlertStateCount(states.length);
    this.#states = structuredClone([...states]);
    this.#asOf = asOf;
  }

  /** Appends entries, keeping the `max` newest. */
  appendHistory(entries: readonly AlertHistoryEntry[], max: number): void {
    this.#history = [...structuredClone(entries).toReversed(), ...this.#history].slice(0, max);
  }

  /** The `limit` newest entries, newest first. */
  listHistory(limit: number): AlertHistoryEntry[] {
    return structuredClone(this.#history.slice(0, limit));
  }
}
