/**
 * How liveness reads on screen: a lock's time left counting down from when
 * it was read, "stalled?" for an active job whose lock is gone, how old the
 * reading is, and the scheduler leader. taskora keeps no worker registry,
 * so tokens are shown as what they are: random ids, not host names.
 *
 * @module
 */
import { currentTime } from "../lib/clock.ts";
import { formatDuration, formatRelative, shortId } from "../lib/format.ts";
import { html } from "../lib/html.ts";
import type { JobLock, Received, SchedulerLeadershipResponse } from "../lib/liveness.ts";

/** What an active job without a lock means, for the flag's and the task page line's tooltip. */
export const STALLED_HINT = "No lock: its worker stopped renewing it (killed or stuck). A live " +
  "worker's stall check requeues or fails the job; with no worker left it stays active.";

/** Milliseconds left of `ttlMs` read at `receivedAt`, by now. */
function leftOf(ttlMs: number, receivedAt: number): number {
  return Math.max(0, ttlMs - (currentTime() - receivedAt));
}

/** `24s left`, counting down; the token in the tooltip. */
function Countdown({ ttlMs, receivedAt, token }: {
  ttlMs: number | null;
  receivedAt: number;
  token: string;
}) {
  const text = ttlMs === null
    ? "held, no expiry"
    : `${formatDuration(Math.ceil(leftOf(ttlMs, receivedAt) / 1000))} left`;
  return html`<span class="lock-left" title=${`lock token ${token}`}>${text}</span>`;
}

/** The lock of an active job: its time left, or "stalled?" when it has none. */
export function LockCell({ lock, receivedAt }: { lock: JobLock | undefined; receivedAt: number }) {
  if (!lock) return html`<span class="muted">—</span>`;
  if (lock.token === null) {
    return html`<span class="state-badge stalled-flag" title=${STALLED_HINT}>stalled?</span>`;
  }
  return html`<${Countdown} ttlMs=${lock.ttlMs} receivedAt=${receivedAt} token=${lock.token} />`;
}

/** `read 3s ago`: how old a liveness reading is. */
export function ReadAge({ receivedAt }: { receivedAt: number }) {
  return html`<span class="muted">read ${formatRelative(receivedAt, currentTime())}</span>`;
}

/** Who leads the schedulers: token and time left, or that none does, or why it is not known. */
export function SchedulerLeaderNote(
  { leadership }: { leadership: Received<SchedulerLeadershipResponse> | null },
) {
  if (!leadership) return null;
  if (!leadership.known) {
    return html`<span class="muted">Scheduler leader: not known. ${leadership.reason}.</span>`;
  }
  const { leader, receivedAt } = leadership;
  if (!leader) {
    return html`
      <span class="scheduler-leader">
        <strong>No scheduler leads</strong>: no schedule fires until an App with
        schedules runs · <${ReadAge} receivedAt=${receivedAt} />
      </span>
    `;
  }
  return html`
    <span class="scheduler-leader">
      Scheduler leader <code class="mono" title=${leader.token}
      >${shortId(leader.token)}</code>, lock <${Countdown}
        ttlMs=${leader.ttlMs}
        receivedAt=${receivedAt}
        token=${leader.token}
      /> unless renewed · <${ReadAge} receivedAt=${receivedAt} />
    </span>
  `;
}
