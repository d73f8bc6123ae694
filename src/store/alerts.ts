/**
 * The alerts' part of the {@link BoardStore}: the states the last evaluation
 * left, the error shapes seen, the history of notices, and the rules and
 * silences made through the API.
 *
 * @module
 */

import type {
  AlertHistoryEntry,
  AlertRule,
  AlertSilence,
  AlertState,
  AlertStatus,
  KnownShapesChange,
  KnownShapesRecord,
  RuleSaveOutcome,
} from "../contract/alerts.ts";

/** What the alert evaluator and the alerts routes keep for every board on the store. */
export interface AlertStore {
  /**
   * The alert states the last evaluation left, so the next one (on this
   * board or the next leader) carries on: no notice sent twice, a resolve
   * still told.
   */
  readAlertStates(): Promise<AlertState[]>;
  /** The alert states with when they were evaluated (null: not said, or never), for `GET /alerts`. */
  readAlertStatus(): Promise<AlertStatus>;
  /**
   * Replaces the alert states, evaluated at `asOf` (ms), with what the pass
   * `notes` beside them (read back in {@link AlertStatus}); more than
   * `MAX_ALERT_STATES` is refused (RangeError). Given `ifAsOf`, only while
   * the stored states are still the ones evaluated then (null: none stored):
   * false, writing nothing, when another leader wrote since.
   */
  writeAlertStates(
    states: readonly AlertState[],
    asOf?: number,
    ifAsOf?: number | null,
    notes?: { evaluated?: readonly string[]; lockSeen?: AlertStatus["lockSeen"] },
  ): Promise<boolean>;
  /**
   * The error shapes the `newErrorGroup` rule's last leader saw, or null when
   * none are kept (none written within `KNOWN_SHAPES_TTL_MS` of `now`).
   */
  readKnownShapes(now: number): Promise<KnownShapesRecord | null>;
  /**
   * Writes what the leader's pass changed in the shapes (more than
   * `MAX_KNOWN_SHAPES` seen is refused, RangeError), kept until `now` plus
   * `KNOWN_SHAPES_TTL_MS`; answers how many the store then holds.
   */
  writeKnownShapes(change: KnownShapesChange, now: number): Promise<number>;
  /** Appends notices with their outcome to the alert history, keeping the `max` newest. */
  appendAlertHistory(entries: readonly AlertHistoryEntry[], max: number): Promise<void>;
  /** The `limit` newest entries of the alert history, newest first. */
  listAlertHistory(limit: number): Promise<AlertHistoryEntry[]>;
  /** The rules made through the API, by name (the leader evaluates them). */
  listAlertRules(): Promise<AlertRule[]>;
  /**
   * Stores `rule`: `create` refuses a name stored already (`exists`),
   * `replace` one not stored (`missing`); a new one beyond `max` is `full`.
   */
  saveAlertRule(rule: AlertRule, mode: "create" | "replace", max: number): Promise<RuleSaveOutcome>;
  /** Removes a stored rule: whether there was one. */
  removeAlertRule(name: string): Promise<boolean>;
  /** The silences kept, oldest first (ended ones until the next add drops them). */
  listAlertSilences(): Promise<AlertSilence[]>;
  /** Drops the silences ended by `now`, then adds `silence` unless `max` are kept: whether it was. */
  addAlertSilence(silence: AlertSilence, now: number, max: number): Promise<boolean>;
  /** Removes a silence: whether there was one. */
  removeAlertSilence(id: string): Promise<boolean>;
}
