/**
 * A task's drain forecast: its arrival and completion rates over the last
 * 10 and 60 minutes and where its backlog heads (see `contract/forecast.ts`
 * for how arrivals are derived).
 *
 * @module
 */

import {
  backlogOf,
  FORECAST_HORIZON_MS,
  FORECAST_WINDOWS,
  type ForecastResponse,
  forecastWindow,
  minuteOf,
} from "../contract/forecast.ts";
import type { TaskSource } from "../source/types.ts";
import type { BacklogSampleStore } from "../store/backlog_samples.ts";

const MINUTE = 60_000;

/** Task `task`'s drain forecast at `now`; `TASK_NOT_FOUND` for an unknown task. */
export async function readForecast(
  source: TaskSource,
  store: BacklogSampleStore,
  task: string,
  now: number,
): Promise<ForecastResponse> {
  const minutes = FORECAST_WINDOWS.map((window) => minuteOf(now) - window * MINUTE);
  const longest = Math.max(...FORECAST_WINDOWS) + 1;
  // The throughput read refuses an unknown task (TASK_NOT_FOUND).
  const [buckets, stats, dueLater, samples] = await Promise.all([
    source.getThroughput({ task, count: longest }),
    source.getStats([task]),
    source.readBacklog?.({ kind: "dueAfter", tasks: [task], at: now + FORECAST_HORIZON_MS }),
    store.readBacklogSamples(task, minutes),
  ]);
  const later = dueLater?.get(task) ?? 0;
  const backlog = backlogOf(stats.get(task)!, later);
  return {
    task,
    readAt: now,
    backlog,
    dueLater: later,
    windows: FORECAST_WINDOWS.map((window, i) => {
      const sample = samples[i];
      if (sample === null) {
        const missing = `no backlog sample from ${window} min ago: the board's leader takes ` +
          "one a minute while someone looks at a board";
        return { minutes: window, missing };
      }
      return forecastWindow({ minutes: window, sample, buckets, backlog, now });
    }),
  };
}
