/**
 * The schedules the benchmarks beside the upstream board list: `nightly-<i>`
 * of task `task-<i>`, a cron at 03:<i> with data `{ i }`, written as taskora
 * writes them.
 *
 * @module
 */

import { createTaskora, defineTask, redisAdapter } from "../../../shared/taskora/taskora.js";

/**
 * Writes `count` schedules as taskora does: an App registers them and
 * starts its scheduler. A schedule names its task by name: given the task's
 * handle, taskora stored the handle whole, its Redis client's state with it
 * (6.6 KB of JSON a schedule, which both boards parsed on every list).
 */
export async function writeNightlySchedules(redisUrl: string, count: number): Promise<void> {
  const app = createTaskora({ adapter: redisAdapter(redisUrl) });
  for (let i = 0; i < count; i++) {
    const task = app.register(defineTask({ name: `task-${i}` }));
    app.schedule(`nightly-${i}`, { task: task.name, cron: `${i} 3 * * *`, data: { i } });
  }
  await app.start();
  await app.close();
}
