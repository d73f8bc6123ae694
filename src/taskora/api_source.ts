/**
 * The board over a taskora App whose store the board cannot reach itself
 * (the memory adapter, or a Redis driver other than ioredis): everything
 * goes through the App's public API (`inspect()`, `deadLetters`,
 * `schedules`, `getRegisteredTasks()`) and its adapter's interface
 * (`app.adapter`, taskora's `Adapter` type, whose observability methods
 * taskora's own board uses). The source is assembled from one part per
 * concern, in `api/`.
 *
 * What that API cannot give is refused or left empty, never guessed:
 * - tasks are the App's registered ones (not those of other services);
 * - a cancelled job cannot be retried (`INVALID_STATE`: taskora's API
 *   retries failed jobs only);
 * - the search by the start of an id finds nothing (whole ids work);
 * - storage per task is what the adapter reports (the memory adapter: the
 *   whole store's job count, 0 bytes); no migration lock (the memory adapter
 *   has none).
 *
 * @module
 */

import { appDispatch } from "./dispatch.ts";
import { MemoryBoardStore } from "../store/memory/mod.ts";
import { pairStore } from "../store/pairing.ts";
import { assemble } from "../source/assemble.ts";
import type { TaskSource } from "../source/types.ts";
import type { TaskoraAppLike } from "./app.ts";
import { AppApi } from "./api/app_api.ts";
import { AppCounts } from "./api/counts.ts";
import { AppTaskFigures } from "./api/task_figures.ts";
import { AppJobs } from "./api/jobs.ts";
import { AppJobActions } from "./api/job_actions.ts";
import { AppDeadLetters } from "./api/dead_letters.ts";
import { AppSchedules } from "./api/schedules.ts";
import { AppWorkflows } from "./api/workflows.ts";
import { AppEvents } from "./api/events.ts";
import { AppTaskFacts } from "./api/task_facts.ts";

/**
 * What the boards on one App keep: its store (the memory adapter) lives in
 * its process, and so does theirs, shared by the boards made on it.
 */
const appBoardStores = new WeakMap<TaskoraAppLike, MemoryBoardStore>();

/** A TaskSource over a taskora App's public API; see the module doc for its limits. */
export function createAppApiSource(app: TaskoraAppLike): TaskSource {
  const api = new AppApi(app);
  const jobs = new AppJobs(api);
  const source: TaskSource = {
    ...assemble(
      new AppCounts(api),
      new AppTaskFigures(api),
      jobs,
      new AppJobActions(api, jobs),
      new AppDeadLetters(api),
      new AppSchedules(api),
      new AppWorkflows(api),
      new AppEvents(api),
      new AppTaskFacts(api),
    ),
    dispatchJob: appDispatch(app, api.ledger),
  };
  // No change feed: the boards over the App's public API read it directly, as they always did.
  const boardStore = appBoardStores.get(app) ?? new MemoryBoardStore({ feed: false });
  appBoardStores.set(app, boardStore);
  pairStore(source, boardStore);
  return source;
}
