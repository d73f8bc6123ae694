/**
 * How far a task's queue is behind, in a table cell: the age of its oldest
 * waiting job, and under it how overdue its first due delayed job is.
 *
 * @module
 */
import type { QueueLatency } from "../../../src/contract/latency.ts";
import { formatElapsed } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";

/** The oldest waiting job's age (linking to it), or a dash when none waits. */
export function QueueAge({ latency }: { latency: QueueLatency | null | undefined }) {
  const waiting = latency?.oldestWaiting;
  const overdue = latency?.mostOverdue;
  return html`${
    waiting
      ? html`<a class="cell-link" href=${`jobs/${
        encodeURIComponent(waiting.id)
      }`} title=${`Job ${waiting.id} waits since ${new Date(waiting.since).toISOString()}`}>${
        formatElapsed(waiting.ageMs)
      }</a>`
      : html`<span class="muted">—</span>`
  }${
    overdue
      ? html`<span class="overdue muted" title=${`Job ${overdue.id} was due at ${
        new Date(overdue.at).toISOString()
      }`}>delayed ${formatElapsed(overdue.overdueMs)} late</span>`
      : null
  }`;
}
