/**
 * The task page (`/tasks/{task}`): the task's header with its bulk actions,
 * its jobs by state first (what the page is opened for), then the cards on
 * its queue: with a job history, its last 7 days and its history's charts;
 * latency, workers, forecast, mechanics, and, with the taskora App, its
 * definition and the dispatch form. Counts and the list reload when this task's jobs
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
import { usePageTitle } from "../../lib/page_title.ts";
import { useLiveResource } from "../../lib/use_live_resource.ts";
import { NotFoundPage } from "../not_found.ts";
import { DefinitionCard } from "./definition_card.ts";
import { LatencyCard } from "./latency_card.ts";
import { WorkersCard } from "./workers_card.ts";
import { ForecastCard } from "./forecast_card.ts";
import { MechanicsCard } from "./mechanics_card.ts";
import { DispatchForm } from "./dispatch_form.ts";
import { changesJobs, JobsCard } from "./jobs_card.ts";
import { useSelectedState } from "./selected_state.ts";
import { TaskHeader } from "./task_header.ts";
import { TaskHistory } from "./task_history.ts";
import { TaskWeek } from "./task_week.ts";

/** The page of one task. */
export function TaskPage({ task }: { task: string }) {
  const { api, live } = useBoard();
  usePageTitle(task);
  const stats = useLiveResource(
    (signal) => api.get("/tasks/{task}/stats", { params: { task }, signal }),
    [task],
    { relevant: changesJobs(task), follows: (frame) => taskCounts(frame, task) },
  );
  const [state, select] = useSelectedState(task, stats.data);
  // The stream's frames say it afresh every few seconds; the answer, when there is no stream.
  const retryingAsOf = live.stats.value?.tasks.find((t) => t.name === task)?.retryingAsOf ??
    stats.data?.retryingAsOf;
  const [changes, setChanges] = useState(0);
  const onChanged = () => {
    stats.reload();
    setChanges((n) => n + 1);
  };

  if (stats.error instanceof ApiError && stats.error.code === "TASK_NOT_FOUND") {
    return html`
      <${NotFoundPage}
        heading=${html`No task named <code>${task}</code>`}
        detail="It has no jobs in this store."
        back=${{ href: "tasks", label: "All tasks" }}
      />
    `;
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
          retryingAsOf=${retryingAsOf}
          changes=${changes}
          onSelect=${select}
        />
      `
      : null}
    <${TaskWeek} task=${task} />
    <${TaskHistory} task=${task} />
    <${LatencyCard} task=${task} />
    <${WorkersCard} task=${task} />
    <${ForecastCard} task=${task} />
    <${MechanicsCard} task=${task} />
    <${DefinitionCard} task=${task} />
    <${DispatchForm} task=${task} />
  `;
}
