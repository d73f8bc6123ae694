/**
 * `usePoll(load, intervalMs)`: loads now, then again every interval while the
 * tab is visible; keeps the last good data when a refresh fails.
 *
 * @module
 */
import { useEffect, useState } from "preact/hooks";

/** What a poll has produced so far. */
export interface PollState<T> {
  data: T | null;
  error: Error | null;
  loading: boolean;
}

/** Polls `load` every `intervalMs`; aborts in-flight requests on unmount. */
export function usePoll<T>(
  load: (signal: AbortSignal) => Promise<T>,
  intervalMs: number,
): PollState<T> {
  const [state, setState] = useState<PollState<T>>({ data: null, error: null, loading: true });
  useEffect(() => {
    const abort = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      if (document.hidden) {
        timer = setTimeout(tick, intervalMs);
        return;
      }
      try {
        const data = await load(abort.signal);
        setState({ data, error: null, loading: false });
      } catch (err) {
        if (abort.signal.aborted) return;
        setState((s) => ({ ...s, error: err as Error, loading: false }));
      }
      timer = setTimeout(tick, intervalMs);
    };
    tick();
    return () => {
      abort.abort();
      clearTimeout(timer);
    };
  }, [load, intervalMs]);
  return state;
}
