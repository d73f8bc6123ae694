/**
 * The live connection: one `EventSource` on `<base>api/events` for the whole
 * page. Job events are handed to listeners in batches, at most one batch per
 * animation frame, so a burst of a thousand events is one render, not a
 * thousand. The stream's open and error events and every `stats:update` go
 * to the page's {@link Connectivity}, which says what is live; while the
 * stream is down, {@link useLiveResource} polls at `refreshInterval`.
 *
 * @module
 */
import { type Signal, signal } from "@preact/signals";
import { goToLogin, urlOf } from "./api.ts";
import type { Connectivity } from "./connectivity.ts";
import {
  type AlertsFramePayload as AlertsFrame,
  JOB_EVENT_KINDS,
  type JobEventPayload,
  type StatsPayload as StatsUpdate,
} from "../../src/contract/events.ts";
import type { BulkOperation } from "../../src/contract/bulk.ts";
import type { TaskStats } from "./types.ts";

/**
 * How long after a refused stream, or a failed first load of the board's
 * configuration, the page asks again: the board's own `retry:` hint for a
 * dropped stream.
 */
export const REOPEN_AFTER_MS = 3000;

/** A `job:<kind>` event's payload, with its kind: the SSE event name without `job:`. */
export type JobEvent = JobEventPayload & { kind: string };

/** The `stats:update` payload, as the server's event hub sends it. */
export type { StatsPayload as StatsUpdate } from "../../src/contract/events.ts";

/** The `alerts` payload: how many alerts fire, per task, as of the last evaluation. */
export type { AlertsFramePayload as AlertsFrame } from "../../src/contract/events.ts";

/** One task's counts in a stats frame; null when the frame does not list the task. */
export function taskCounts(stats: StatsUpdate, task: string): TaskStats | null {
  return stats.tasks.find((t) => t.name === task)?.stats ?? null;
}

/** The page-wide live connection. */
export interface Live {
  /** The newest `stats:update`, or null before the first. */
  readonly stats: Signal<StatsUpdate | null>;
  /** The newest `bulk:progress` (an operation of this board, as it stands), or null. */
  readonly bulk: Signal<BulkOperation | null>;
  /** The newest `alerts` frame, or null before the first. */
  readonly alerts: Signal<AlertsFrame | null>;
  /** Receives job events in per-frame batches; returns the unsubscribe function. */
  subscribe(listener: (events: JobEvent[]) => void): () => void;
  /** Closes the stream. */
  close(): void;
}

/** Hands queued items to `flush` once per animation frame (or soon, when the tab is hidden). */
export function frameBatcher<T>(flush: (items: T[]) => void): (item: T) => void {
  let queue: T[] = [];
  let scheduled = false;
  const run = () => {
    scheduled = false;
    const items = queue;
    queue = [];
    flush(items);
  };
  return (item: T) => {
    queue.push(item);
    if (scheduled) return;
    scheduled = true;
    // Animation frames do not fire in a hidden tab; a timer still does.
    if (document.hidden) setTimeout(run, 100);
    else requestAnimationFrame(run);
  };
}

/**
 * Opens the event stream of a base path ending in `/`, reporting to
 * `connectivity`. The stream is closed while the tab is hidden and opened
 * again when it is shown (the views then reload, as after any outage): over
 * HTTP/1.1 a browser keeps at most six connections to a host, and a stream
 * holds one for as long as it is open, so with six tabs of the board open a
 * seventh never loaded. Hidden tabs do not poll either (`useLiveResource`).
 */
export function createLive(basePath: string, connectivity: Connectivity): Live {
  const stats = signal<StatsUpdate | null>(null);
  const bulk = signal<BulkOperation | null>(null);
  const alerts = signal<AlertsFrame | null>(null);
  const listeners = new Set<(events: JobEvent[]) => void>();
  const push = frameBatcher<JobEvent>((events) => {
    for (const listener of listeners) listener(events);
  });

  const url = `${basePath}api/${urlOf("/events")}`;
  const open = (): EventSource => {
    const source = new EventSource(url, { withCredentials: true });
    source.onopen = () => connectivity.streamOpened();
    // EventSource reconnects by itself (after the server's `retry:` hint);
    // until it does, pages poll.
    source.onerror = () => {
      connectivity.streamFailed();
      // A refused reconnect closes the EventSource for good: a HEAD, answered
      // like the GET without a stream, tells why. A session that ended sends
      // the page to the login form; anything else (a board with login cannot
      // vouch for a session while Redis is down, and answers 503) passes, so
      // the stream is opened again, as the browser would for a dropped one.
      if (source.readyState !== EventSource.CLOSED) return;
      fetch(url, { method: "HEAD", credentials: "same-origin" }).then(
        (res) => res.status === 401 ? goToLogin(basePath) : reopenLater(),
        reopenLater, // the board is unreachable: pages poll and say so meanwhile
      );
    };
    source.addEventListener("stats:update", (event) => {
      const payload = parse(event);
      if (!isStatsUpdate(payload)) return;
      stats.value = payload;
      // A frame sent before the board ever read Redis carries no counts, and no time for them.
      const counted = payload.connected || payload.tasks.length > 0;
      connectivity.statsReceived({ connected: payload.connected, at: counted ? payload.at : null });
    });
    source.addEventListener("bulk:progress", (event) => {
      const payload = parse(event);
      if (payload && typeof payload.id === "string" && typeof payload.done === "number") {
        bulk.value = payload as unknown as BulkOperation;
      }
    });
    source.addEventListener("alerts", (event) => {
      const payload = parse(event);
      if (isAlertsFrame(payload)) alerts.value = payload;
    });
    for (const kind of JOB_EVENT_KINDS) {
      source.addEventListener(`job:${kind}`, (event) => {
        const payload = parse(event);
        if (payload && typeof payload.id === "string") {
          push({ ...payload, kind } as JobEvent);
        }
      });
    }
    return source;
  };

  let source: EventSource | null = document.hidden ? null : open();
  if (!source) connectivity.streamFailed();
  let reopenTimer: ReturnType<typeof setTimeout> | undefined;
  function reopenLater() {
    clearTimeout(reopenTimer);
    reopenTimer = setTimeout(() => {
      if (source?.readyState !== EventSource.CLOSED) return; // closed by the page, or hidden
      source = open();
    }, REOPEN_AFTER_MS);
  }
  const onVisibility = () => {
    if (document.hidden && source) {
      source.close();
      source = null;
      connectivity.streamFailed();
    } else if (!document.hidden && !source) {
      source = open();
    }
  };
  document.addEventListener("visibilitychange", onVisibility);

  return {
    stats,
    bulk,
    alerts,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      document.removeEventListener("visibilitychange", onVisibility);
      clearTimeout(reopenTimer);
      source?.close();
      source = null;
      listeners.clear();
    },
  };
}

/** The shape the views rely on; a frame without it is dropped. */
function isStatsUpdate(value: Record<string, unknown> | null): value is StatsUpdate & {
  [key: string]: unknown;
} {
  return value !== null && typeof value.connected === "boolean" &&
    typeof value.at === "number" && Array.isArray(value.tasks) &&
    typeof value.totals === "object" && value.totals !== null;
}

/** A frame the firing counts can rely on: counts that are whole numbers, a time. */
export function isAlertsFrame(value: Record<string, unknown> | null): value is AlertsFrame & {
  [key: string]: unknown;
} {
  const isCount = (n: unknown) => Number.isSafeInteger(n) && (n as number) >= 0;
  return value !== null && isCount(value.firing) && isCount(value.silenced) &&
    typeof value.asOf === "number" &&
    typeof value.byTask === "object" && value.byTask !== null &&
    Object.values(value.byTask).every(isCount);
}

function parse(event: Event): Record<string, unknown> | null {
  try {
    const value = JSON.parse((event as MessageEvent<string>).data);
    return value && typeof value === "object" ? value : null;
  } catch {
    return null;
  }
}
