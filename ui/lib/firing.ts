/**
 * What fires now, for the top bar, the sidebar and the overview's rows: the
 * count of firing alerts, per task, and the rules firing for each task. The
 * counts follow the event stream's `alerts` frame; the rule names are read
 * from `GET /alerts` when a frame changes them. While the stream is down,
 * `GET /alerts` is polled every `refreshInterval`, and every few intervals
 * while it is live, like every other view.
 *
 * @module
 */
import { effect, type ReadonlySignal, signal } from "@preact/signals";
import type { AlertsOverview } from "../pages/alerts/types.ts";
import type { Api } from "./api.ts";
import type { Connectivity } from "./connectivity.ts";
import type { AlertsFrame, Live } from "./live.ts";
import { BACKSTOP_FACTOR } from "./use_live_resource.ts";

/** What fires, as of the last evaluation (`asOf`, null before the first). */
export interface Firing {
  /** Alerts firing that no silence mutes: what the pills count. */
  firing: number;
  /** Alerts firing that a silence mutes, counted apart. */
  silenced: number;
  byTask: Record<string, number>;
  asOf: number | null;
  /** The rules firing for each task, by name, as far as they were read. */
  rulesByTask: Record<string, string[]>;
}

/**
 * What fires by an alerts overview; null when alerts are not configured.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { firingOf } from "./firing.ts";
 * assert.equal(firingOf({ enabled: false } as never), null);
 * ```
 */
export function firingOf(overview: AlertsOverview): Firing | null {
  if (!overview.enabled) return null;
  const byTask: Record<string, number> = {};
  const rulesByTask: Record<string, string[]> = {};
  for (const rule of overview.rules) {
    for (const alert of rule.alerts) {
      if (alert.phase !== "firing" || alert.muted || alert.task === null) continue;
      byTask[alert.task] = (byTask[alert.task] ?? 0) + 1;
      const names = rulesByTask[alert.task] ??= [];
      if (!names.includes(rule.name)) names.push(rule.name);
    }
  }
  const { firing, silenced, asOf } = overview;
  return { firing, silenced, byTask, asOf, rulesByTask };
}

/** A frame's counts, keeping the rule names already known for the tasks still firing. */
export function withFrame(frame: AlertsFrame, known: Firing | null): Firing {
  const rulesByTask: Record<string, string[]> = {};
  for (const task of Object.keys(frame.byTask)) {
    const names = known?.rulesByTask[task];
    if (frame.byTask[task] > 0 && names) rulesByTask[task] = names;
  }
  const { firing, silenced, byTask, asOf } = frame;
  return { firing, silenced, byTask, asOf, rulesByTask };
}

/** Whether `firing` lacks the rule names of a task that fires. */
function namesMissing(firing: Firing): boolean {
  return Object.entries(firing.byTask).some(([task, n]) =>
    n > 0 && (firing.rulesByTask[task]?.length ?? 0) === 0
  );
}

/** The page-wide view of what fires; `close()` stops it. */
export interface FiringWatch {
  readonly state: ReadonlySignal<Firing | null>;
  close(): void;
}

/** Calls `tick` every `ms` while the page is visible; returns the function that stops it. */
function everyVisible(tick: () => void, ms: number): () => void {
  const id = setInterval(() => {
    if (!document.hidden) tick();
  }, ms);
  return () => clearInterval(id);
}

/** Follows `live`'s `alerts` frames, reading `GET /alerts` for rule names and while polling. */
export function createFiringWatch(
  { api, live, connectivity, refreshInterval, every = everyVisible }: {
    api: Pick<Api, "get">;
    live: Pick<Live, "alerts">;
    connectivity: Pick<Connectivity, "stream">;
    refreshInterval: number;
    /** The polling timer (tests drive it). */
    every?: (tick: () => void, ms: number) => () => void;
  },
): FiringWatch {
  const state = signal<Firing | null>(null);
  const abort = new AbortController();
  let reading = false;

  const read = async () => {
    if (reading || abort.signal.aborted) return;
    reading = true;
    try {
      state.value = firingOf(await api.get("/alerts", { signal: abort.signal }));
    } catch {
      // The top bar says when the board or Redis does not answer; the last counts stay.
    } finally {
      reading = false;
    }
  };

  const stopFollowing = effect(() => {
    const frame = live.alerts.value;
    if (!frame) return;
    const next = withFrame(frame, state.peek());
    state.value = next;
    if (namesMissing(next)) read();
  });
  // Polled at every tick while the stream is down, and now and then as a backstop while it is live.
  let ticks = 0;
  const stopPolling = every(() => {
    ticks = (ticks + 1) % BACKSTOP_FACTOR;
    if (connectivity.stream.peek() !== "open" || ticks === 0) read();
  }, refreshInterval);
  read();

  return {
    state,
    close() {
      abort.abort();
      stopFollowing();
      stopPolling();
    },
  };
}
