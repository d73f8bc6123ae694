/**
 * Every run a worker made of a job, in the Attempts tab: "Ran 2×" and each
 * run's start and end, and where taskora's stall check put the job back to
 * waiting after it had finished (taskora 0.5.0 does so to a job its check
 * listed whose worker finished before renewing the lock: it runs again).
 *
 * @module
 */
import { Time } from "../../components/time.ts";
import { html } from "../../lib/html.ts";
import type { AttemptHistory } from "./types.ts";

type Run = AttemptHistory["runs"][number];

const ENDED: Record<NonNullable<Run["outcome"]>, string> = {
  completed: "completed",
  failed: "failed",
  retrying: "failed, retried",
  cancelled: "cancelled",
  stalled: "lost its lock: taken by taskora's stall check",
};

/** One run: when it started, how and when it ended, and whether the stall check put it back. */
function RunLine({ run, index }: { run: Run; index: number }) {
  return html`
    <li>
      <strong>Run ${index + 1}</strong>
      <span class="muted"> · started <${Time} at=${run.startedAt} /> · ${run.outcome === null
        ? "running, or its end was not found"
        : html`${ENDED[run.outcome]} <${Time} at=${run.endedAt} />`}</span>
      ${run.requeuedAt === null ? null : html`
        <p class="job-note rerun-note">
          Then taskora's stall check put it back to waiting (<${Time} at=${run.requeuedAt} />): it
          had listed the job as running, and the job finished before its worker renewed the lock.
          taskora 0.5.0 does not look at the state, so a worker ran it again.
        </p>
      `}
    </li>
  `;
}

/** The runs of `history`, with "Ran N×" when there was more than one. */
export function Runs({ history }: { history: AttemptHistory }) {
  const { runs } = history;
  if (runs.length === 0) return null;
  return html`
    <section class="runs">
      <p class=${runs.length > 1 ? "runs-flag" : "muted"}>
        ${runs.length > 1 ? `Ran ${runs.length}×` : "Ran once"}${history.complete
          ? ""
          : " (at least: older runs may have been trimmed)"}
      </p>
      <ol class="run-list">
        ${runs.map((run, index) =>
          html`<${RunLine} key=${run.startedAt} run=${run} index=${index} />`
        )}
      </ol>
    </section>
  `;
}
