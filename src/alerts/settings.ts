/**
 * What the alert mutations share: they need the `alerts` option or
 * `--alerts FILE` (sinks come only from there) and a store that keeps rules
 * and silences; without either they answer 409 `CONFLICT`.
 *
 * @module
 */

import type { AlertsConfig } from "../contract/alerts.ts";
import { BoardError } from "../errors.ts";
import type { ResolvedOptions } from "../options.ts";
import type { TaskSource } from "../source/types.ts";

/** The methods of a source that keeps alert rules and silences. */
export type AlertSettingsStore = Required<
  Pick<
    TaskSource,
    | "listAlertRules"
    | "saveAlertRule"
    | "removeAlertRule"
    | "listAlertSilences"
    | "addAlertSilence"
    | "removeAlertSilence"
  >
>;

/** The board's alerts configuration, or 409 `CONFLICT` naming the option. */
export function alertsConfigOf(options: ResolvedOptions): AlertsConfig {
  if (options.alerts) return options.alerts;
  throw new BoardError(
    "CONFLICT",
    "Alerts are not configured on this board: give the `alerts` option or `--alerts FILE` " +
      "(the sinks come only from there)",
  );
}

/** `source` as a store of rules and silences, or 409 `CONFLICT`. */
export function alertSettingsOf(source: TaskSource): AlertSettingsStore {
  const { listAlertRules, saveAlertRule, removeAlertRule } = source;
  const { listAlertSilences, addAlertSilence, removeAlertSilence } = source;
  if (
    listAlertRules && saveAlertRule && removeAlertRule && listAlertSilences && addAlertSilence &&
    removeAlertSilence
  ) {
    return source as AlertSettingsStore;
  }
  throw new BoardError("CONFLICT", "This board's store keeps no alert rules or silences");
}
