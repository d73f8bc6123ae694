/**
 * How far a task's queue is behind, under its name in the task table: the age
 * of its oldest waiting job, and how overdue its first due delayed job is.
 *
 * @module
 */
import type { QueueLatency } from "../../../src/contract/latency.ts";
import { formatElapsed } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";

/** The oldest waiting job's age (linking to it) and the first due delayed job's lateness, when any. */
export function QueueAge({ latency }: { latency: QueueLatency | null | undefined }) {
  const waiting = latency?.oldestWaiting;
  const overdue = latency?.mostOverdue;
  return html`${
    waiting
      ? html`<a class="latency-age" href=${`jobs/${
        encodeURIComponent(waiting.id)
      }`} title=${`Job ${waiting.id} waits since ${
        new Date(waiting.since).toISOString()
      }`}>oldest waiting ${formatElapsed(waiting.ageMs)}</a>`
      : null
  }${
    overdue
      ? html`<span class="overdue" title=${`Job ${overdue.id} was due at ${
        new Date(overdue.at).toISOString()
      }`}>delayed ${formatElapsed(overdue.overdueMs)} late</span>`
      : null
  }`;
}
