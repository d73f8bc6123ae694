/**
 * Delivering one notice to one sink: each attempt bounded by the sink's
 * timeout, failed attempts retried with doubling backoff on the injected
 * timers, up to the sink's `retries`. The report says what happened; a
 * notice that could not be delivered is reported `failed`, never dropped.
 *
 * @module
 */

import type { AlertDelivery, AlertNotice, AlertSink } from "../contract/alerts.ts";
import { pauseOn, type Timers } from "../timers.ts";
import { type SinkRequest, slackRequest } from "./slack.ts";
import { webhookRequest } from "./webhook.ts";

/** What became of one notice at one sink. */
export type DeliveryReport = AlertDelivery;

/** What a delivery runs on. */
export interface DeliveryDeps {
  /** The timeouts and the backoff between attempts. */
  timers: Timers;
  /** Wall-clock time, ms since the epoch: the signature's timestamp. */
  clock: () => number;
  /** Ends the delivery at once (the board closes): the attempt under way fails, none follows. */
  signal?: AbortSignal;
}

/** The wait after the first failed attempt; each further one doubles it. */
export const FIRST_BACKOFF_MS = 1000;
/** The longest wait between two attempts. */
export const MAX_BACKOFF_MS = 30_000;

function requestOf(sink: AlertSink, notice: AlertNotice, now: number): Promise<SinkRequest> {
  return sink.type === "webhook"
    ? webhookRequest(notice, sink.secret!, now)
    : Promise.resolve(slackRequest(notice));
}

/** Why a delivery stopped when its signal ended it. */
export const CLOSED = "the board closed";

/** A notice not posted to `sink` at all, and why. */
export function notDelivered(sink: string, error: string): DeliveryReport {
  return { sink, outcome: "failed", attempts: 0, error };
}

/** One post; null when the receiver took it (2xx), else why not. */
async function postOnce(
  url: string,
  { body, headers }: SinkRequest,
  timeoutMs: number,
  { timers, signal }: DeliveryDeps,
): Promise<string | null> {
  const timeout = new AbortController();
  const timer = timers.setTimeout(() => timeout.abort(), timeoutMs);
  timers.unref(timer);
  // One signal for both ends: a board that closed before this post began (while its notice was
  // signed) stops it too, which a listener added now would never hear.
  const stopped = signal ? AbortSignal.any([signal, timeout.signal]) : timeout.signal;
  try {
    // Redirects are not followed: the board posts only to the URL the sink names.
    const response = await fetch(url, {
      method: "POST",
      body,
      headers,
      redirect: "manual",
      signal: stopped,
    });
    await response.body?.cancel();
    return response.ok ? null : `HTTP ${response.status}`;
  } catch {
    if (signal?.aborted) return CLOSED;
    return timeout.signal.aborted ? `timed out after ${timeoutMs} ms` : "connection failed";
  } finally {
    timers.clearTimeout(timer);
  }
}

/**
 * Posts `notice` to `sink`, retrying a failed attempt after 1 s, 2 s, 4 s …
 * (at most {@link MAX_BACKOFF_MS}) up to `sink.retries` times, or until
 * `deps.signal` ends it. Each attempt is signed anew, so its timestamp is
 * fresh.
 */
export async function deliverNotice(
  sink: AlertSink,
  notice: AlertNotice,
  deps: DeliveryDeps,
): Promise<DeliveryReport> {
  for (let attempt = 1;; attempt++) {
    const request = await requestOf(sink, notice, deps.clock());
    const error = await postOnce(sink.url, request, sink.timeoutMs, deps);
    if (error === null) return { sink: sink.name, outcome: "delivered", attempts: attempt, error };
    if (attempt > sink.retries || deps.signal?.aborted) {
      return { sink: sink.name, outcome: "failed", attempts: attempt, error };
    }
    await pauseOn(
      deps.timers,
      Math.min(FIRST_BACKOFF_MS * 2 ** (attempt - 1), MAX_BACKOFF_MS),
      deps.signal,
    );
    // Ended during the backoff: no further attempt (its post would outlive the end).
    if (deps.signal?.aborted) {
      return { sink: sink.name, outcome: "failed", attempts: attempt, error: CLOSED };
    }
  }
}
