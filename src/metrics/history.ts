/**
 * The history series of a scrape (see `docs/history.md`): what the job
 * history holds, and whether its caps cut it. A history past its
 * `maxSummaries` or `maxPerTask` keeps the newest and drops the oldest;
 * these series are where the board says so: one `holding()` read of the
 * history's store per scrape (on Redis, one pipeline of three commands).
 *
 * @module
 */

import { Counter, Gauge, type Registry } from "prom-client";
import type { HistoryStore } from "../history/store.ts";

/** The history gauges of one registry, and their read. */
export interface HistorySeries {
  /** Sets the gauges from what the history holds now. */
  read(): Promise<void>;
}

/** Registers the history series on `registry`, read from `history`. */
export function createHistorySeries(registry: Registry, history: HistoryStore): HistorySeries {
  const registers = [registry];
  const gauge = (name: string, help: string) => new Gauge({ name, help, registers });
  const summaries = gauge("queue_board_history_summaries", "Job summaries the history holds now.");
  const oldest = gauge(
    "queue_board_history_oldest_timestamp_seconds",
    "When the oldest job summary the history holds ended (unix seconds; 0 when empty).",
  );
  const capped = gauge(
    "queue_board_history_capped",
    "1 once a cap (history.maxSummaries or maxPerTask) dropped older summaries: the history " +
      "holds the newest only, the older ones were dropped; 0 while only age dropped any.",
  );
  const dropped = new Counter({
    name: "queue_board_history_capped_dropped_total",
    help: "Job summaries the history's caps dropped (the oldest first).",
    registers,
  });
  const newestDropped = gauge(
    "queue_board_history_capped_newest_timestamp_seconds",
    "When the newest summary a cap dropped had ended (unix seconds; 0 before any): the " +
      "history is whole only after it.",
  );
  return {
    async read() {
      const holding = await history.holding();
      summaries.set(holding.summaries);
      oldest.set((holding.oldestAt ?? 0) / 1000);
      capped.set(holding.capped ? 1 : 0);
      dropped.reset();
      dropped.inc(holding.capped?.dropped ?? 0);
      newestDropped.set((holding.capped?.newestDroppedAt ?? 0) / 1000);
    },
  };
}
