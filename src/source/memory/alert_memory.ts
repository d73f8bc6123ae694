/**
 * The memory source's alert states, history, stored rules and silences: what Redis keeps for every
 * board (`../redis/alerts.ts`), in the process, with the same bounds. Values
 * are copied in and out, so no caller shares an object with another.
 *
 * @module
 */

import type {
  AlertHistoryEntry,
  AlertRule,
  AlertSilence,
  AlertState,
  AlertStatus,
  RuleSaveOutcome,
} from "../../contract/alerts.ts";
import { checkAlertStateCount } from "../alert_states_cap.ts";

/** The alerts' memory of one memory store. */
export class AlertMemory {
  #states: AlertState[] = [];
  #asOf: number | null = null;
  /** Newest first. */
  #history: AlertHistoryEntry[] = [];
  #rules = new Map<string, AlertRule>();
  #silences = new Map<string, AlertSilence>();

  /** The states last written, with when they were evaluated. */
  readStatus(): AlertStatus {
    return { asOf: this.#asOf, states: structuredClone(this.#states) };
  }

  /**
   * Replaces the states (refused whole above the cap), evaluated at `asOf`;
   * given `ifAsOf`, only while the stored ones were evaluated then (false if not).
   */
  writeStates(
    states: readonly AlertState[],
    asOf: number | null,
    ifAsOf?: number | null,
  ): boolean {
    checkAlertStateCount(states.length);
    if (ifAsOf !== undefined && ifAsOf !== this.#asOf) return false;
    this.#states = structuredClone([...states]);
    this.#asOf = asOf;
    return true;
  }

  /** Appends entries, keeping the `max` newest. */
  appendHistory(entries: readonly AlertHistoryEntry[], max: number): void {
    this.#history = [...structuredClone(entries).toReversed(), ...this.#history].slice(0, max);
  }

  /** The `limit` newest entries, newest first. */
  listHistory(limit: number): AlertHistoryEntry[] {
    return structuredClone(this.#history.slice(0, limit));
  }

  /** The stored rules, by name. */
  listRules(): AlertRule[] {
    return structuredClone([...this.#rules.values()]).sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Stores a rule (`create`: a new name; `replace`: an existing one), within `max`. */
  saveRule(rule: AlertRule, mode: "create" | "replace", max: number): RuleSaveOutcome {
    const exists = this.#rules.has(rule.name);
    if (mode === "create" && exists) return "exists";
    if (mode === "replace" && !exists) return "missing";
    if (!exists && this.#rules.size >= max) return "full";
    this.#rules.set(rule.name, structuredClone(rule));
    return "saved";
  }

  /** Removes a stored rule: whether there was one. */
  removeRule(name: string): boolean {
    return this.#rules.delete(name);
  }

  /** The silences kept, oldest first. */
  listSilences(): AlertSilence[] {
    return structuredClone([...this.#silences.values()]).sort((a, b) => a.createdAt - b.createdAt);
  }

  /** Drops the silences ended by `now`, then adds `silence` unless `max` are kept. */
  addSilence(silence: AlertSilence, now: number, max: number): boolean {
    for (const [id, kept] of this.#silences) if (kept.until <= now) this.#silences.delete(id);
    if (this.#silences.size >= max) return false;
    this.#silences.set(silence.id, structuredClone(silence));
    return true;
  }

  /** Removes a silence: whether there was one. */
  removeSilence(id: string): boolean {
    return this.#silences.delete(id);
  }
}
