/**
 * `useLiveResource(load, deps)`: data that stays current. It loads when `deps`
 * change; while the event stream is live it reloads after relevant job events
 * and when the part of `stats:update` it follows changes (at most once a
 * second, or once per `minGap`, and once every few refresh intervals as a
 * backstop); while the stream is down it polls every `refreshInterval`
 * (never more often than `minGap`). When the board is back
 * after an outage (Redis, the board itself, or the stream), it reloads at
 * once. A failed refresh keeps the last good data and reports the error.
 * A board still reading every task for the first time (503 `COUNTING`) is
 * no error: the resource says it is counting and asks again by itself when
 * the answer says (`Retry-After`, held between 1 and 30 s), one ask at a
 * time, until it is answered.
 *
 * @module
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { COUNTING_RETRY_S } from "../../src/contract/errors.ts";
import { ApiError } from "./api.ts";
import { useBoard } from "./board_context.ts";
import type { JobEvent, StatsUpdate } from "./live.ts";

/** What a live resource has produced so far. */
export interface LiveResource<T> {
  data: T | null;
  error: Error | null;
  /**
   * True until the first answer for the current `deps` (with `keepWithin`,
   * the data meanwhile may be the last `deps`' answer).
   */
  loading: boolean;
  /** True while the board answers that it is still counting every task (then `error` is null). */
  counting: boolean;
  /** Loads again now (after a mutation, for instance). */
  reload(): void;
}

/** Options of {@link useLiveResource}. */
export interface LiveResourceOptions<T> {
  /** Which job events make the data stale; every event when left out. */
  relevant?: (event: JobEvent) => boolean;
  /**
   * The part of a `stats:update` the data follows (counts it shows, or holds
   * rows of): once a frame's part differs from the part in the newest frame
   * when the data was loaded, it reloads. This catches what comes without
   * job events (a clean, a new task) within one stats interval. Compared by
   * JSON; `undefined` means nothing to follow. Frames sent while Redis is
   * down are skipped.
   */
  follows?: (stats: StatsUpdate, data: T) => unknown;
  /** While true, nothing reloads it but `reload()` (the user paused a list); unpausing reloads. */
  paused?: boolean;
  /**
   * Which list the data is of (a task and a state, a filter): when `deps`
   * change but these do not (another page of the same list), the last
   * answer stays, with `loading` true, until the new `deps`' first answer
   * replaces it. The next page takes the place of the rows shown when it
   * comes, rather than a blank "Loading…", and what describes the rows (a
   * pager's label) is taken from the answer. Another list starts blank.
   */
  keepWithin?: readonly unknown[];
  /**
   * Shortest gap (ms) between two reloads that events, stats frames or
   * polling ask for; `reload()` is never held back. 1 s when left out: views
   * whose data changes rarely (a lock, a schedule list) set more, so a busy
   * queue does not make every tab re-read them each second.
   */
  minGap?: number;
}

/** Shortest gap between two event-driven reloads. */
const MIN_RELOAD_GAP_MS = 1000;
/** While live, a reload still happens every this many refresh intervals. */
export const BACKSTOP_FACTOR = 6;

/**
 * When to ask again after `error`, ms, if it says the board is still
 * counting: its `Retry-After`, held between 1 and 30 s (a proxy may send
 * another); null for any other error.
 */
function countingRetryMs(error: unknown): number | null {
  if (!(error instanceof ApiError) || error.code !== "COUNTING") return null;
  return Math.min(Math.max(error.retryAfterMs ?? COUNTING_RETRY_S * 1000, 1000), 30_000);
}

/** Loads `load` and keeps it current; `deps` restart it (like `useEffect`). */
export function useLiveResource<T>(
  load: (signal: AbortSignal) => Promise<T>,
  deps: readonly unknown[],
  options: LiveResourceOptions<T> = {},
): LiveResource<T> {
  const { live, config, connectivity } = useBoard();
  const [state, setState] = useState<Omit<LiveResource<T>, "reload">>({
    data: null,
    error: null,
    loading: true,
    counting: false,
  });
  const latest = useRef({ load, options });
  latest.current = { load, options };
  const controller = useRef<{ schedule(): void; reload(): void } | null>(null);
  const stream = connectivity.stream.value;
  const recoveries = connectivity.recoveries.value;
  /** The list (`keepWithin`, as JSON) of the data loaded last. */
  const list = useRef<string | undefined>(undefined);

  useEffect(() => {
    // Compared by JSON, as the stats frame's part is: a list is named by plain values.
    const within = JSON.stringify(latest.current.options.keepWithin);
    const sameList = within !== undefined && within === list.current;
    list.current = within;
    setState((s) => ({
      data: sameList ? s.data : null,
      error: null,
      loading: true,
      counting: false,
    }));
    const abort = new AbortController();
    let inFlight = false;
    let again = false;
    // A reload asked for while a read was under way: it runs as soon as that read ends, since
    // that read may have been answered before the change the reload is for (a user's own action).
    let reloadAfter = false;
    let lastRun = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    /** The newest data, and the followed part of the stats frame current when it was asked for. */
    let loaded: { data: T } | null = null;
    let loadedPart: string | undefined;
    const partOf = (frame: StatsUpdate | null): string | undefined => {
      const follows = latest.current.options.follows;
      if (!follows || !loaded || !frame?.connected) return undefined;
      const part = follows(frame, loaded.data);
      return part === undefined ? undefined : JSON.stringify(part);
    };

    const run = async () => {
      if (inFlight) {
        again = true;
        return;
      }
      inFlight = true;
      lastRun = Date.now();
      const frame = live.stats.peek();
      let countingFor: number | null = null;
      try {
        const data = await latest.current.load(abort.signal);
        loaded = { data };
        if (!abort.signal.aborted) setState({ data, error: null, loading: false, counting: false });
      } catch (err) {
        countingFor = countingRetryMs(err);
        if (!abort.signal.aborted) {
          setState((s) =>
            countingFor === null
              ? { ...s, error: err as Error, loading: false, counting: false }
              : { ...s, error: null, counting: true }
          );
        }
      } finally {
        // Asked at this frame (or, before the first, at the one that came
        // meanwhile), answered or not: the next change is what counts.
        loadedPart = partOf(frame ?? live.stats.peek());
        inFlight = false;
        if (reloadAfter && !abort.signal.aborted) {
          reloadAfter = again = false;
          run();
        } else if (again && !abort.signal.aborted) {
          again = false;
          schedule();
        } else if (countingFor !== null) {
          schedule(countingFor);
        }
      }
    };
    /** Runs after `wait` ms, or once `minGap` has passed since the last run. */
    const schedule = (wait?: number) => {
      if (timer !== undefined || abort.signal.aborted || latest.current.options.paused) return;
      const gap = latest.current.options.minGap ?? MIN_RELOAD_GAP_MS;
      wait ??= Math.max(0, lastRun + gap - Date.now());
      timer = setTimeout(() => {
        timer = undefined;
        run();
      }, wait);
    };
    controller.current = {
      schedule,
      reload() {
        clearTimeout(timer);
        timer = undefined;
        if (inFlight) reloadAfter = true;
        else run();
      },
    };

    run();
    const unsubscribe = live.subscribe((events) => {
      const relevant = latest.current.options.relevant;
      if (!relevant || events.some(relevant)) schedule();
    });
    const unfollow = live.stats.subscribe((frame) => {
      const part = partOf(frame);
      if (part === undefined) return;
      if (loadedPart === undefined) loadedPart = part;
      else if (part !== loadedPart) schedule();
    });
    return () => {
      abort.abort();
      clearTimeout(timer);
      unsubscribe();
      unfollow();
    };
  }, [...deps, live]);

  const paused = options.paused ?? false;
  const wasPaused = useRef(paused);
  useEffect(() => {
    if (paused === wasPaused.current) return;
    wasPaused.current = paused;
    if (!paused) controller.current?.schedule();
  }, [paused]);

  // Back from an outage: whatever happened meanwhile, load again now.
  const seenRecoveries = useRef(recoveries);
  useEffect(() => {
    if (recoveries === seenRecoveries.current) return;
    seenRecoveries.current = recoveries;
    controller.current?.reload();
  }, [recoveries]);

  // The polling period depends on the stream: slow backstop while it is
  // open, `refreshInterval` while it is down; never shorter than `minGap`.
  const minGap = options.minGap ?? MIN_RELOAD_GAP_MS;
  useEffect(() => {
    const period = stream === "open"
      ? config.refreshInterval * BACKSTOP_FACTOR
      : config.refreshInterval;
    const poll = setInterval(() => {
      if (!document.hidden) controller.current?.schedule();
    }, Math.max(period, minGap));
    return () => clearInterval(poll);
  }, [stream, config.refreshInterval, minGap]);

  return { ...state, reload: () => controller.current?.reload() };
}
