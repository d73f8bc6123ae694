/**
 * A real taskora 0.5.0 App with three hourly schedules, `hourly-0` to
 * `hourly-2`, each running its own task `report-<i>` with data `{ i }`:
 * started, it writes them to its Redis and can change them
 * (`app.schedules.update` needs its scheduler running); hourly, none runs
 * during a test.
 *
 * @module
 */

import { createTaskora, redisAdapter } from "../../../shared/taskora/taskora.js";

/** The App, not started yet, on the Redis at `url`. */
export function hourlySchedulesApp(url: string): ReturnType<typeof createTaskora> {
  const app = createTaskora({ adapter: redisAdapter(url) });
  for (const i of [0, 1, 2]) {
    app.task(`report-${i}`, { handler: () => null });
    app.schedule(`hourly-${i}`, { task: `report-${i}`, every: "1h", data: { i } });
  }
  return app;
}
