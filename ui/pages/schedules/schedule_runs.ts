/**
 * Every run a schedule made, the scheduler's and the board's, in a
 * disclosure read when opened: each with its outcome (taskora's state, the
 * history's once taskora removed the job, or unknown) and a link to its job.
 *
 * @module
 */
import { useState } from "preact/hooks";
import { StateBadge } from "../../components/state_badge.ts";
import { Time } from "../../components/time.ts";
import { useBoard } from "../../lib/board_context.ts";
import { shortId } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";
import { href } from "../../lib/router.ts";
import type { ScheduleRun } from "./types.ts";

/** How many runs one read brings: "More" reads the next ones. */
const RUNS_PER_READ = 20;

/** One run: its outcome, who made it, its job and when. */
function RunItem({ run }: { run: ScheduleRun }) {
  return html`
    <li>
      ${run.state === "unknown"
        ? html`<span class="muted" title="Neither taskora nor the history holds the job">unknown</span>`
        : html`<${StateBadge} state=${run.state} />`}
      ${run.archived
        ? html`<span class="muted" title="taskora removed it: the history's">archived</span>`
        : null}
      <a class="schedule-job" href=${href("jobs", run.jobId)} title=${run.jobId}>${shortId(
        run.jobId,
      )}</a>
      <span class="muted">${run.by === "board" ? "Run now" : "scheduled"}</span>
      <span class="muted"><${Time} at=${run.at} /></span>
    </li>
  `;
}

/** The runs of schedule `name`, read page by page once the disclosure opens. */
export function ScheduleRuns({ name }: { name: string }) {
  const { api } = useBoard();
  const [runs, setRuns] = useState<ScheduleRun[] | null>(null);
  const [total, setTotal] = useState(0);
  const [failed, setFailed] = useState<string | null>(null);
  const read = (offset: number) =>
    api.get("/schedules/{name}/runs", { params: { name }, query: { offset, limit: RUNS_PER_READ } })
      .then((page) => {
        setRuns((shown) => [...offset === 0 ? [] : shown ?? [], ...page.runs]);
        setTotal(page.total);
        setFailed(null);
      }, (error: Error) => setFailed(error.message));
  const toggled = (event: Event) => {
    if ((event.currentTarget as HTMLDetailsElement).open) read(0);
  };
  return html`
    <details class="schedule-all-runs" onToggle=${toggled}>
      <summary>Every run</summary>
      ${failed ? html`<p class="error">${failed}</p>` : null}
      ${runs === null
        ? null
        : runs.length === 0
        ? html`<p class="muted">No run seen yet</p>`
        : html`<ol>${runs.map((run) => html`<${RunItem} key=${run.jobId} run=${run} />`)}</ol>`}
      ${runs !== null && runs.length < total
        ? html`<button type="button" onClick=${() => read(runs.length)}>More</button>`
        : null}
    </details>
  `;
}
