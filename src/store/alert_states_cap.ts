/**
 * The one bound both sources put on the alert states they keep.
 *
 * @module
 */

import { MAX_ALERT_STATES } from "../contract/alerts.ts";

/** Throws, writing nothing, when `count` states are more than a source keeps. */
export function checkAlertStateCount(count: number): void {
  if (count > MAX_ALERT_STATES) {
    throw new RangeError(`Alert states: at most ${MAX_ALERT_STATES}, got ${count}`);
  }
}
