/**
 * The job history's concern of the {@link BoardStore}: a history store
 * beside the board's other state (Redis: under the board's root, through
 * the store's connection; memory: in the process), made when the `history`
 * option turns the recorder on. The Postgres history (`postgres/`) is
 * chosen by the option instead, whatever the store.
 *
 * @module
 */

import type { HistoryLimits, HistoryStore } from "../history/store.ts";

/** Where the board records the jobs taskora removes, unless the option names Postgres. */
export interface JobHistoryStore {
  /**
   * A history store keeping at most `limits` (defaults: 7 days or 1M summaries).
   *
   * @internal its types are the board's own, not yet public.
   */
  history(limits: Partial<HistoryLimits>): HistoryStore;
}
