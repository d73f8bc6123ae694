/**
 * The task page's latency card: how far the queue is behind (its oldest
 * waiting job, its most overdue delayed one) and the wait and run
 * percentiles of its newest finished jobs, each with its histogram. The
 * sample's size, time span and age are said, as the API states them.
 *
 * @module
 */
import { useMemo } from "preact/hooks";
import { Card } from "../../components/card.ts";
import { Fact } from "../../components/fact.ts";
import { useBoard } from "../../lib/board_context.ts";
import {
  formatCount,
  formatCountOf,
  formatDateTime,
  formatElapsed,
  shortId,
} from "../../lib/format.ts";
import { currentTime } from "../../lib/clock.ts";
import { html } from "../../lib/html.ts";
import { taskCounts } from "../../lib/live.ts";
import { href } from "../../lib/router.ts";
import { useLiveResource } from "../../lib/use_live_resource.ts";
import type { DurationSummary } from "../../../src/contract/latency.ts";
import { LatencyHistogram } from "./latency_histogram.ts";

function Percentiles({ title, summary }: { title: string; summary: DurationSummary }) {
  const p = summary.percentiles;
  return html`
    <div class="latency-dist">
      <h3 class="latency-title">${title}</h3>
      ${p
        ? html`
          <dl class="facts latency-percentiles">
            <${Fact} label="p50">${formatElapsed(p.p50)}<//>
            <${Fact} label="p95">${formatElapsed(p.p95)}<//>
            <${Fact} label="p99">${formatElapsed(p.p99)}<//>
          </dl>
          <${LatencyHistogram} summary=${summary} label=${`${title} histogram`} />
        `
        : html`<p class="muted">No finished job ran yet.</p>`}
    </div>
  `;
}

/**
 * An age as read (`ms`), grown by the time since the read (`readAt`): a stuck
 * queue changes no count, so nothing reads the card again for a while, and its
 * oldest job keeps waiting meanwhile.
 */
function Age({ ms, readAt }: { ms: number; readAt: number }) {
  return html`${formatElapsed(ms + currentTime() - readAt)}`;
}

/** The latency card of one task. */
export function LatencyCard({ task }: { task: string }) {
  const { api } = useBoard();
  const latency = useLiveResource(
    (signal) => api.get("/tasks/{task}/latency", { params: { task }, signal }),
    [task],
    // Finished counts move the percentiles, queued ones the ages.
    { relevant: () => false, follows: (frame) => taskCounts(frame, task) },
  );
  const data = latency.data;
  const readAt = useMemo(() => Date.now(), [data]);
  if (!data) {
    return html`
      <${Card} title="Latency">
        <p class="empty">${latency.loading ? "Loading…" : "No data."}</p>
        <//>
    `;
  }
  const { queue, sample } = data;
  const span = sample.from === null
    ? "no finished job yet"
    : `newest ${formatCount(sample.jobs)} of at most ${
      formatCountOf(sample.sampleSize, "finished job")
    }, ${formatDateTime(sample.from)} – ${formatDateTime(sample.to)}`;
  return html`
    <${Card} title="Latency" actions=${html`<span class="muted latency-span">${span}</span>`}>
      <dl class="facts">
        <${Fact} label="Oldest waiting">${queue.oldestWaiting
          ? html`<${Age} ms=${queue.oldestWaiting.ageMs} readAt=${readAt} /> <a href=${
            href(
              "jobs",
              queue.oldestWaiting.id,
            )
          } class="muted">${shortId(queue.oldestWaiting.id)}</a>`
          : "none waiting"}<//>
        <${Fact} label="Most overdue delayed">${queue.mostOverdue
          ? html`
            <${Age} ms=${queue.mostOverdue.overdueMs} readAt=${readAt} /> late <a href=${href(
              "jobs",
              queue.mostOverdue.id,
            )}
              class="muted">${shortId(queue.mostOverdue.id)}</a>
          `
          : "none due"}<//>
      </dl>
      <div class="latency-grid">
        <${Percentiles} title="Wait (run-at to start)" summary=${sample.wait} />
        <${Percentiles} title="Run (last attempt)" summary=${sample.run} />
      </div>
    <//>
  `;
}
