/**
 * The task page (`/tasks/{task}`): the task's header with its bulk actions,
 * and its jobs by state. Counts and the list reload when this task's jobs
 * change state, and when its counts in the stream's stats frames change
 * (a clean, for instance, writes no events); progress events move the rows
 * on screen in place.
 *
 * @module
 */
import { useState } from "preact/hooks";
import { ErrorBanner } from "../../components/error_banner.ts";
import { ApiError } from "../../lib/api.ts";
import { useBoard } from "../../lib/board_context.ts";
import { html } from "../../lib/html.ts";
import { taskCounts } from "../../lib/live.ts";
import { href } from "../../lib/router.ts";
import { useLiveResource } from "../../lib/use_live_resource.ts";
import { changesJobs, JobsCard } from "./jobs_card.ts";
import { useSelectedState } from "./selected_state.ts";
import { TaskHeader } from "./task_header.ts";
import type { TaskStatsResponse } from "./types.ts";

function TaskNotFound({ task }: { task: string }) {
  return html`
    <div class="card empty-state">
      <p><strong>No task named <code>${task}</code></strong></p>
      <p class="muted">It has no jobs in this store. <a class="task-link" href="tasks">All tasks</a></p>
    </div>
  `;
}

/** The page of one task. */
export function TaskPage({ task }: { task: string }) {
  const { api } = useBoard();
  const stats = useLiveResource(
    (signal) => api.get<TaskStatsResponse>(href("tasks", task, "stats"), { signal }),
    [task],
    { relevant: changesJobs(task), follows: (frame) => taskCounts(frame, task) },
  );
  const [state, select] = useSelectedState(task, stats.data);
  const [changes, setChanges] = useState(0);
  const onChanged = () => {
    stats.reload();
    setChanges((n) => n + 1);
  };

  if (stats.error instanceof ApiError && stats.error.code === "TASK_NOT_FOUND") {
    return html`<${TaskNotFound} task=${task} />`;
  }
  return html`
    <${ErrorBanner} error=${stats.error} />
    <${TaskHeader} task=${task} stats=${stats.data} onChanged=${onChanged} />
    ${state
      ? html`
        <${JobsCard}
          task=${task}
          state=${state}
          stats=${stats.data}
          changes=${changes}
          onSelect=${select}
        />
      `
      : null}
  `;
}
