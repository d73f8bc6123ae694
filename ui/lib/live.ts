/**
 * The live connection: one `EventSource` on `<base>api/events` for the whole
 * page. Job events are handed to listeners in batches, at most one batch per
 * animation frame, so a burst of a thousand events is one render, not a
 * thousand. While the stream is down the status is `polling` and
 * {@link useLiveResource} falls back to polling at `refreshInterval`.
 *
 * @module
 */
import { type Signal, signal } from "@preact/signals";
import { goToLogin } from "./api.ts";
import type { Totals } from "./types.ts";

/** `live`: the event stream is open; `polling`: it is down and pages poll. */
export type LiveStatus = "connecting" | "live" | "polling";

/** A `job:<kind>` event: `{ id, task, at, ...fields }` as the server decoded them. */
export interface JobEvent {
  /** The event kind without the `job:` prefix (`completed`, `progress`, …). */
  kind: string;
  id: string;
  task: string;
  at: number;
  [field: string]: unknown;
}

/** The `stats:update` payload. */
export interface StatsUpdate {
  tasks: { name: string; stats: Record<string, number> }[];
  totals: Totals;
  connected: boolean;
  error?: string;
  at: number;
}

/** The page-wide live connection. */
export interface Live {
  readonly status: Signal<LiveStatus>;
  /** The newest `stats:update`, or null before the first. */
  readonly stats: Signal<StatsUpdate | null>;
  /** Receives job events in per-frame batches; returns the unsubscribe function. */
  subscribe(listener: (events: JobEvent[]) => void): () => void;
  /** Closes the stream. */
  close(): void;
}

/** The job event kinds taskora writes to a task's event stream. */
export const JOB_EVENT_KINDS = [
  "waiting",
  "delayed",
  "promoted",
  "active",
  "progress",
  "completed",
  "failed",
  "retrying",
  "stalled",
  "cancelled",
  "expired",
  "debounced",
  "collect",
] as const;

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

/** Opens the event stream of a base path ending in `/`. */
export function createLive(basePath: string): Live {
  const status = signal<LiveStatus>("connecting");
  const stats = signal<StatsUpdate | null>(null);
  const listeners = new Set<(events: JobEvent[]) => void>();
  const push = frameBatcher<JobEvent>((events) => {
    for (const listener of listeners) listener(events);
  });

  const url = `${basePath}api/events`;
  const source = new EventSource(url, { withCredentials: true });
  source.onopen = () => {
    status.value = "live";
  };
  // EventSource reconnects by itself (after the server's `retry:` hint);
  // until it does, pages poll.
  source.onerror = () => {
    status.value = "polling";
    // A refused reconnect (the session ended with the stream) closes the
    // EventSource for good and hides the status: a HEAD, answered like the GET
    // without a stream, tells.
    if (source.readyState !== EventSource.CLOSED) return;
    fetch(url, { method: "HEAD", credentials: "same-origin" }).then((res) => {
      if (res.status === 401) goToLogin(basePath);
    }, () => {}); // the board is unreachable: pages poll and say so
  };
  source.addEventListener("stats:update", (event) => {
    const payload = parse(event);
    if (payload) stats.value = payload as unknown as StatsUpdate;
  });
  for (const kind of JOB_EVENT_KINDS) {
    source.addEventListener(`job:${kind}`, (event) => {
      const payload = parse(event);
      if (payload && typeof payload.id === "string") {
        push({ ...payload, kind } as JobEvent);
      }
    });
  }

  return {
    status,
    stats,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      source.close();
      listeners.clear();
    },
  };
}

function parse(event: Event): Record<string, unknown> | null {
  try {
    const value = JSON.parse((event as MessageEvent<string>).data);
    return value && typeof value === "object" ? value : null;
  } catch {
    return null;
  }
}
