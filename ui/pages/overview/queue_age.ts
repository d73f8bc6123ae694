/**
 * How far a task's queue is behind, under its name in the task table: the age
 * of its oldest waiting job, and how overdue its first due delayed job is.
 *
 * @module
 */
import type { QueueLatency } from "../../../src/contract/latency.ts";
import { currentTime } from "../../lib/clock.ts";
import { formatElapsed } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";

/**
 * The oldest waiting job's age (linking to it) and the first due delayed job's lateness, when any.
 * Both grow on the UI's clock, as every "ago" does: a stuck queue changes none of the counts the
 * overview is read again on, and its oldest job keeps waiting meanwhile. Never below the figure read.
 */
export function QueueAge({ latency }: { latency: QueueLatency | null | undefined }) {
  const waiting = latency?.oldestWaiting;
  const overdue = latency?.mostOverdue;
  const now = waiting || overdue ? currentTime() : 0;
  return html`${
    waiting
      ? html`<a class="latency-age" href=${`jobs/${
        encodeURIComponent(waiting.id)
      }`} title=${`Job ${waiting.id} waits since ${
        new Date(waiting.since).toISOString()
      }`}>oldest waiting ${formatElapsed(Math.max(waiting.ageMs, now - waiting.since))}</a>`
      : null
  }${
    overdue
      ? html`<span class="overdue" title=${`Job ${overdue.id} was due at ${
        new Date(overdue.at).toISOString()
      }`}>delayed ${formatElapsed(Math.max(overdue.overdueMs, now - overdue.at))} late</span>`
      : null
  }`;
}
