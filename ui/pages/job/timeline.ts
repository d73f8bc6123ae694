/**
 * A job's life as a vertical timeline: each step with its absolute and
 * relative time and the gap since the step before, then the durations an
 * operator asks about first (how long this attempt waited, how long it ran).
 *
 * @module
 */
import { Card } from "../../components/card.ts";
import { currentTime } from "../../lib/clock.ts";
import { formatDateTime, formatElapsed, formatRelative } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";
import { useBoard } from "../../lib/board_context.ts";
import { useLiveResource } from "../../lib/use_live_resource.ts";
import { attemptWait } from "./attempt_wait.ts";
import type { AttemptHistory, JobDetail, TimelineEntry } from "./types.ts";

/** What each step of the API's timeline means, in words. */
const STEP_LABEL: Record<string, string> = {
  waiting: "Created",
  active: "Started",
  delayed: "Due to run",
  retrying: "Next attempt due",
  completed: "Completed",
  failed: "Failed",
  cancelled: "Cancelled",
  expired: "Expired",
  cancelling: "Cancel requested",
};

function Step({ entry, previous }: { entry: TimelineEntry; previous: TimelineEntry | undefined }) {
  return html`
    <li class=${`timeline-step state-${entry.state}`}>
      <span class="timeline-dot" aria-hidden="true"></span>
      <div class="timeline-what">
        <strong>${STEP_LABEL[entry.state] ?? entry.state}</strong>
        ${previous
          ? html`<span class="timeline-gap" title=${`after ${
            STEP_LABEL[previous.state] ??
              previous.state
          }`}>+${formatElapsed(entry.at - previous.at)}</span>`
          : null}
      </div>
      <time class="timeline-when" datetime=${new Date(entry.at).toISOString()}>
        ${formatDateTime(entry.at)}
        <span class="muted"> · ${formatRelative(entry.at, currentTime())}</span>
      </time>
    </li>
  `;
}

/**
 * The durations that can be known; a running job's run time counts up to
 * now. "Waited" is this attempt's wait (see {@link attemptWait}), left out
 * when the retry that made it due is not known.
 */
function durations(
  job: JobDetail,
  now: number,
  history: AttemptHistory | null,
): [string, number][] {
  const { created, processed, finished } = job.timestamps;
  const spans: [string, number][] = [];
  const waited = attemptWait(
    { attempt: job.attempt, created, processed },
    history?.attempts ?? null,
  );
  if (waited !== null) spans.push([job.attempt > 1 ? "Waited (this attempt)" : "Waited", waited]);
  if (processed !== null && finished !== null) spans.push(["Ran", finished - processed]);
  else if (processed !== null && job.state === "active") {
    spans.push(["Running for", now - processed]);
  }
  if (finished !== null) spans.push(["Total", finished - created]);
  return spans;
}

/** The timeline card of the job page. */
export function TimelineCard({ job }: { job: JobDetail }) {
  const { api } = useBoard();
  // A later attempt's wait starts when its retry was due: that is in the attempt history.
  const retried = job.attempt > 1 && job.timestamps.processed !== null;
  const history = useLiveResource(
    (signal) =>
      retried
        ? api.get("/jobs/{jobId}/attempts", { params: { jobId: job.id }, signal })
        : Promise.resolve(null),
    [job.id, retried, job.timestamps.processed],
    { relevant: () => false },
  );
  const spans = durations(job, currentTime(), history.data);
  const expireAt = job.timestamps.expireAt;
  return html`
    <${Card} title="Timeline">
      <ol class="timeline">
        ${job.timeline.map((entry, index) =>
          html`<${Step} key=${index} entry=${entry} previous=${job.timeline[index - 1]} />`
        )}
      </ol>
      ${spans.length
        ? html`
          <dl class="facts timeline-facts">
            ${spans.map(([label, ms]) =>
              html`
                <div key=${label}>
                  <dt>${label}</dt>
                  <dd>${formatElapsed(ms)}</dd>
                </div>
              `
            )}
          </dl>
        `
        : null}
      ${job.eventsTrimmedBefore !== null
        ? html`<p class="timeline-note timeline-trimmed" role="note">
          Events before ${formatDateTime(job.eventsTrimmedBefore)} were trimmed by taskora's
          stream cap (about 10,000 per task): this job's attempts may be incomplete.
        </p>`
        : null}
      ${expireAt !== null
        ? html`<p class="timeline-note muted">${
          job.state === "expired" ? "Had to start by" : "Expires if not started by"
        } ${formatDateTime(expireAt)}</p>`
        : null}
    <//>
  `;
}
