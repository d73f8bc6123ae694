/**
 * A job's life as a vertical timeline: each step with its absolute and
 * relative time and the gap since the step before, then the durations an
 * operator asks about first (how long it waited, how long it ran).
 *
 * @module
 */
import { Card } from "../../components/card.ts";
import { currentTime } from "../../lib/clock.ts";
import { formatDateTime, formatElapsed, formatRelative } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";
import type { JobDetail, TimelineEntry } from "./types.ts";

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

/** The durations that can be known from the timestamps; a running job's run time counts up to now. */
function durations(job: JobDetail, now: number): [string, number][] {
  const { created, processed, finished } = job.timestamps;
  const spans: [string, number][] = [];
  if (processed !== null) spans.push(["Waited", processed - created]);
  if (processed !== null && finished !== null) spans.push(["Ran", finished - processed]);
  else if (processed !== null && job.state === "active") {
    spans.push(["Running for", now - processed]);
  }
  if (finished !== null) spans.push(["Total", finished - created]);
  return spans;
}

/** The timeline card of the job page. */
export function TimelineCard({ job }: { job: JobDetail }) {
  const spans = durations(job, currentTime());
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
