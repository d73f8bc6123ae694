/**
 * What the alert mutations share: they need the `alerts` option or
 * `--alerts FILE` (sinks come only from there); without it they answer 409
 * `CONFLICT`. The rules and silences live in the board's `BoardStore`.
 *
 * @module
 */

import type { AlertsConfig } from "../contract/alerts.ts";
import { BoardError } from "../errors.ts";
import type { ResolvedOptions } from "../options.ts";

/** The board's alerts configuration, or 409 `CONFLICT` naming the option. */
export function alertsConfigOf(options: ResolvedOptions): AlertsConfig {
  if (options.alerts) return options.alerts;
  throw new BoardError(
    "CONFLICT",
    "Alerts are not configured on this board: give the `alerts` option or `--alerts FILE` " +
      "(the sinks come only from there)",
  );
}
