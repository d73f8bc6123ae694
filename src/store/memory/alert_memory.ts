/**
 * The memory store's alert states, history, stored rules and silences: what Redis keeps for every
 * board (`../redis/alerts.ts`), in the process, with the same bounds. Values
 * are copied in and out, so no caller shares an object with another.
 *
 * @module
 */

import {
  type AlertHistoryEntry,
  type AlertRule,
  type AlertSilence,
  type AlertStatus,
  type AlertStatusWrite,
  KNOWN_SHAPES_TTL_MS,
  type KnownShape,
  type KnownShapesChange,
  type KnownShapesRecord,
  type RuleSaveOutcome,
} from "../../contract/alerts.ts";
import { checkAlertStateCount } from "../alert_states_cap.ts";
import { cutKnownShapes, knownShapeKey } from "../known_shapes_cap.ts";

/** The alerts' memory of one memory store. */
export class AlertMemory {
  #status: AlertStatus = { asOf: null, states: [] };
  /** Newest first. */
  #history: AlertHistoryEntry[] = [];
  #rules = new Map<string, AlertRule>();
  #silences = new Map<string, AlertSilence>();
  /** The error shapes by `<task>\0<shape>`, and until when they are kept. */
  #shapes: { baselineAt: number; byKey: Map<string, KnownShape>; until: number } | null = null;

  /** The error shapes kept, or null when none were written or they expired by `now`. */
  readShapes(now: number): KnownShapesRecord | null {
    if (this.#shapes === null || this.#shapes.until <= now) return null;
    const { baselineAt, byKey } = this.#shapes;
    return { baselineAt, shapes: structuredClone([...byKey.values()]) };
  }

  /** Writes a pass's change, kept {@link KNOWN_SHAPES_TTL_MS} from `now`: how many are then kept. */
  writeShapes(change: KnownShapesChange, now: number): number {
    const seen = cutKnownShapes(change.seen);
    const live = this.#shapes !== null && this.#shapes.until > now && !change.whole;
    const byKey = live ? this.#shapes!.byKey : new Map<string, KnownShape>();
    for (const { task, shape } of change.forgotten) byKey.delete(knownShapeKey(task, shape));
    for (const known of seen) byKey.set(knownShapeKey(known.task, known.shape), known);
    this.#shapes = { baselineAt: change.baselineAt, byKey, until: now + KNOWN_SHAPES_TTL_MS };
    return byKey.size;
  }

  /** The states last written, with when they were evaluated and the rules evaluated. */
  readStatus(): AlertStatus {
    return structuredClone(this.#status);
  }

  /**
   * Replaces the states (refused whole above the cap), evaluated at `asOf`;
   * given `ifAsOf`, only while the stored ones were evaluated then (false if not).
   */
  writeStates(status: AlertStatusWrite, ifAsOf?: number | null): boolean {
    const { asOf, states, evaluated, lockSeen } = status;
    checkAlertStateCount(states.length);
    if (ifAsOf !== undefined && ifAsOf !== this.#status.asOf) return false;
    // The notes a pass left out are absent, as Redis reads them back.
    this.#status = structuredClone({
      asOf,
      states: [...states],
      ...(evaluated && { evaluated: [...evaluated] }),
      ...(lockSeen && { lockSeen }),
    });
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
