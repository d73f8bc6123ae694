/**
 * The task page's workers card: when a worker last took and last finished
 * one of its jobs, the live lock holders among its active jobs (each a
 * worker running that job now), and the fewest live workers that allows,
 * with the basis the API states. taskora keeps no worker registry, so an
 * idle worker is not seen: the card says so rather than show a count.
 *
 * @module
 */
import { Card } from "../../components/card.ts";
import { ErrorBanner } from "../../components/error_banner.ts";
import { Fact } from "../../components/fact.ts";
import { Time } from "../../components/time.ts";
import { useBoard } from "../../lib/board_context.ts";
import { formatCount, formatCountOf, formatElapsed, shortId } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";
import { taskCounts } from "../../lib/live.ts";
import { href } from "../../lib/router.ts";
import { useLiveResource } from "../../lib/use_live_resource.ts";
import type { TaskActivity } from "../../../src/contract/workers.ts";

/** The most lock holders listed; the rest are counted. */
const SHOWN_HOLDERS = 10;

/** A time read from the stream, or since when none was. */
function Seen({ at, activity }: { at: number | null; activity: TaskActivity }) {
  if (at !== null) return html`<${Time} at=${at} />`;
  if (activity.coveredSince === null) return html`<span class="muted">no events</span>`;
  return html`
    <span
      class="muted">not in the newest ${formatCount(
        activity.scanned,
      )} events (since <${Time} at=${activity.coveredSince} />)</span>
  `;
}

/** The workers card of one task. */
export function WorkersCard({ task }: { task: string }) {
  const { api } = useBoard();
  const workers = useLiveResource(
    (signal) => api.get("/tasks/{task}/workers", { params: { task }, signal }),
    [task],
    { relevant: () => false, follows: (frame) => taskCounts(frame, task) },
  );
  const data = workers.data;
  if (!data) {
    return html`
      <${Card} title="Workers">
        <${ErrorBanner} error=${workers.error} />
        ${workers.error
          ? null
          : html`<p class="empty">${workers.loading ? "Loading…" : "No data."}</p>`}
        <//>
    `;
  }
  if (!data.known) {
    return html`
      <${Card} title="Workers">
        <${ErrorBanner} error=${workers.error} />
        <p class="muted">${data.reason}</p>
        <//>
    `;
  }
  const { activity, holders, estimate } = data;
  const more = holders.length - SHOWN_HOLDERS;
  // A lock's time left is as of the read: say when that was.
  return html`
    <${Card}
      title="Workers"
      actions=${html`<span class="muted">read <${Time} at=${data.readAt} /></span>`}
    >
      <${ErrorBanner} error=${workers.error} />
      <dl class="facts definition-facts workers-facts">
        <${Fact} label="Last taken">
          <${Seen} at=${activity.lastTakenAt} activity=${activity} />
          <//>
          <${Fact} label="Last finished">
            <${Seen} at=${activity.lastFinishedAt} activity=${activity} />
            <//>
            <${Fact} label="Live workers">
          ${estimate.atLeast === 0 ? "none seen" : `at least ${formatCount(estimate.atLeast)}`}
          <span class="muted workers-basis">${estimate.basis}</span>
        <//>
        <${Fact} label="Active">
          ${formatCountOf(data.active, "job")}${data.unlocked.length > 0
            ? html`
              · <span class="workers-unlocked">${formatCount(
                data.unlocked.length,
              )} without a lock</span>
            `
            : null}
        <//>
      </dl>
      ${holders.length > 0
        ? html`
          <h3 class="workers-title">Lock holders</h3>
          <ul class="workers-holders">
            ${holders.slice(0, SHOWN_HOLDERS).map((holder) =>
              html`
                <li key=${holder.token}>
                  <a href=${href("jobs", holder.jobId)}><code>${shortId(holder.jobId)}</code></a>
                  <span class="muted" title=${holder.token}>lock ${shortId(holder.token)}</span>
                  <span class="muted">${holder.ttlMs === null
                    ? "no expiry"
                    : `${formatElapsed(holder.ttlMs)} left`}</span>
                </li>
              `
            )}
            ${more > 0 ? html`<li class="muted">and ${formatCount(more)} more</li>` : null}
          </ul>
        `
        : null}
    <//>
  `;
}
