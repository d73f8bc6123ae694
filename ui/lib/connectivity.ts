/**
 * What the page knows about how current its data is, from three witnesses:
 * the event stream (open or down), its `stats:update` frames (`connected`
 * says whether Redis answered the board, `at` when it last did), and the
 * outcome of every API request (answered, `STORE_UNAVAILABLE`, or no answer
 * at all). From them it derives one {@link LiveStatus}, the time the data on
 * screen dates from while it is stale, and a count of recoveries: each time
 * the board is back after an outage, every view loads again at once.
 *
 * It holds signals only (no timers, no I/O): the event stream and the API
 * client feed it, and the views read it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createConnectivity } from "./connectivity.ts";
 *
 * const link = createConnectivity();
 * link.streamOpened();
 * link.statsReceived({ connected: false, at: Date.now() - 3000 });
 * assert.deepEqual(link.status.value, "store-down");
 * link.statsReceived({ connected: true, at: Date.now() });
 * assert.equal(link.status.value, "live");
 * assert.equal(link.recoveries.value, 1);
 * ```
 *
 * @module
 */
import { batch, computed, type ReadonlySignal, signal } from "@preact/signals";

/** The event stream: opening, open, or down (the browser retries it by itself). */
export type StreamState = "connecting" | "open" | "down";

/**
 * What the top bar says. `live`: events arrive and Redis answers;
 * `store-down`: the board answers but Redis does not (data on screen is the
 * last known); `polling`: the stream is down but requests succeed;
 * `offline`: the board itself does not answer.
 */
export type LiveStatus = "connecting" | "live" | "store-down" | "polling" | "offline";

/**
 * How an API request ended: `ok` (a 2xx: the board and its store answered),
 * `answered` (another status: the board answered, the store's state is not
 * known), `store-down` (503 `STORE_UNAVAILABLE`), `unreachable` (no answer).
 */
export type RequestOutcome = "ok" | "answered" | "store-down" | "unreachable";

/** The page-wide connectivity state; see the module documentation. */
export interface Connectivity {
  readonly stream: ReadonlySignal<StreamState>;
  readonly status: ReadonlySignal<LiveStatus>;
  /** While `store-down` or `offline`: when the data on screen was last known current (ms), if ever. */
  readonly asOf: ReadonlySignal<number | null>;
  /** Counts the returns from an outage (Redis, the board, or the stream); views reload on each. */
  readonly recoveries: ReadonlySignal<number>;
  /** The event stream opened. */
  streamOpened(): void;
  /** The event stream failed; the browser reconnects by itself. */
  streamFailed(): void;
  /** A `stats:update` frame arrived; `at` null when it carries no counts ever read. */
  statsReceived(frame: { connected: boolean; at: number | null }): void;
  /** An API request ended (aborted requests are not reported). */
  requestEnded(outcome: RequestOutcome): void;
}

/** Creates the connectivity state of one page. */
export function createConnectivity(): Connectivity {
  const stream = signal<StreamState>("connecting");
  const storeUp = signal(true);
  const serverUp = signal(true);
  const asOf = signal<number | null>(null);
  const recoveries = signal(0);
  /** The newest moment the store was known to answer. */
  let lastGood: number | null = null;

  const status = computed<LiveStatus>(() => {
    if (!serverUp.value) return "offline";
    if (!storeUp.value) return "store-down";
    if (stream.value === "open") return "live";
    return stream.value === "connecting" ? "connecting" : "polling";
  });
  const isStale = (s: LiveStatus) => s === "store-down" || s === "offline";

  /** Applies one witness's news: freezes `asOf` on going stale, counts a recovery on coming back. */
  const update = (change: () => boolean) =>
    batch(() => {
      const recovered = change();
      const stale = isStale(status.value);
      if (stale && asOf.value === null) asOf.value = lastGood;
      if (!stale) asOf.value = null;
      if (recovered) recoveries.value++;
    });
  const markGood = (at: number) => {
    lastGood = Math.max(lastGood ?? at, at);
  };
  /** Sets a flag; true when it went from false to true. */
  const raise = (flag: typeof storeUp) => {
    const was = flag.value;
    flag.value = true;
    return !was;
  };

  return {
    stream,
    status,
    asOf,
    recoveries,
    streamOpened() {
      update(() => {
        const reopened = stream.value === "down";
        stream.value = "open";
        return raise(serverUp) || reopened;
      });
    },
    streamFailed() {
      update(() => {
        stream.value = "down";
        return false;
      });
    },
    statsReceived({ connected, at }) {
      if (at !== null && Number.isFinite(at)) markGood(at);
      update(() => {
        const server = raise(serverUp);
        if (!connected) {
          storeUp.value = false;
          return server;
        }
        return raise(storeUp) || server;
      });
    },
    requestEnded(outcome) {
      if (outcome === "ok") markGood(Date.now());
      update(() => {
        if (outcome === "unreachable") {
          serverUp.value = false;
          return false;
        }
        const server = raise(serverUp);
        if (outcome === "store-down") storeUp.value = false;
        return (outcome === "ok" && raise(storeUp)) || server;
      });
    },
  };
}
