/**
 * How often a background pass of the Redis source runs: as often as it is
 * cheap, never more than its cost allows, and not at all while nobody
 * watches the board.
 *
 * @module
 */

import type { Pacer } from "./pacer.ts";
import type { Watch } from "./watch.ts";
import { systemTimers, type TimerId, type Timers } from "../../timers.ts";

/** Options of {@link Cadence}. */
export interface CadenceOptions {
  /** Shortest pause between the end of a pass and the start of the next, ms. */
  minMs: number;
  /**
   * The next pass waits `factor` times the Redis time the last one took
   * (its wall time minus what it waited for its {@link CadenceOptions.pacer}),
   * so the pass never takes more than `1 / factor` of Redis's time.
   */
  factor: number;
  /**
   * When set, what a pass finds must be at most this old (ms): the pause
   * is cut so that pause + the next pass's wall time stays within it, even
   * where `factor` would wait longer.
   */
  freshnessMs?: number;
  /** The budget the pass spends under: time waiting for it is not Redis time. */
  pacer?: Pacer;
  /**
   * When set, what the passes spend of their `pacer` averages at most this
   * many commands per second: the pause after a pass is at least its
   * spending over this rate, minus its wall time. This wins over
   * `freshnessMs` (a pass that costs more comes less often).
   */
  averagePerSecond?: number;
  /**
   * Whether a wake starts the first pass too (default false: the first
   * {@link Cadence.run} does, so what is never used never runs).
   */
  startOnWake?: boolean;
  /** The clock and timers it runs on (default the runtime's; tests pass fake ones). */
  timers?: Timers;
}

/**
 * Runs a pass now ({@link Cadence.run}, concurrent callers share it) and
 * again after each pass while the {@link Watch} says the board is watched.
 * When it is not, no timer is left: the next wake (a request, an SSE
 * client) starts a pass at once if the last one is older than `minMs`.
 * Timers are unref'd; {@link Cadence.stop} clears them and aborts the pass.
 */
export class Cadence<T> {
  readonly #job: (signal: AbortSignal) => Promise<T>;
  readonly #watch: Watch;
  readonly #options: CadenceOptions;
  readonly #timers: Timers;
  readonly #stop = new AbortController();
  readonly #offWake: () => void;
  #inFlight: Promise<T> | null = null;
  #timer: TimerId | undefined;
  #endedAt = -Infinity;
  #nextPauseMs = 0;

  /** Creates the cadence; nothing runs until {@link Cadence.run} or a wake. */
  constructor(
    job: (signal: AbortSignal) => Promise<T>,
    watch: Watch,
    options: CadenceOptions,
  ) {
    this.#job = job;
    this.#watch = watch;
    this.#options = options;
    this.#timers = options.timers ?? systemTimers;
    this.#offWake = watch.onWake(() => this.#onWake());
  }

  /** The pause planned after the last pass, ms (what its cost allowed). */
  get nextPauseMs(): number {
    return this.#nextPauseMs;
  }

  /** Whether a pass is under way. */
  get running(): boolean {
    return this.#inFlight !== null;
  }

  /** Runs a pass now, or joins the one under way. */
  run(): Promise<T> {
    if (this.#stop.signal.aborted) return Promise.reject(new Error("stopped"));
    if (this.#inFlight) return this.#inFlight;
    this.#clearTimer();
    const started = this.#timers.now();
    const waited = this.#options.pacer?.waited ?? 0;
    const spent = this.#options.pacer?.spent ?? 0;
    const pass = this.#job(this.#stop.signal);
    this.#inFlight = pass;
    pass.then(
      () => {
        const wall = this.#timers.now() - started;
        const busy = Math.max(0, wall - ((this.#options.pacer?.waited ?? 0) - waited));
        this.#plan(wall, busy, (this.#options.pacer?.spent ?? 0) - spent);
      },
      () => this.#nextPauseMs = this.#options.minMs,
    ).finally(() => {
      this.#inFlight = null;
      this.#endedAt = this.#timers.now();
      this.#schedule(this.#nextPauseMs);
    });
    return pass;
  }

  /** Stops: no more passes, the one under way is aborted and awaited. */
  async stop(): Promise<void> {
    this.#stop.abort();
    this.#offWake();
    this.#clearTimer();
    await this.#inFlight?.catch(() => {});
  }

  #plan(wall: number, busy: number, spent: number): void {
    const { minMs, factor, freshnessMs, averagePerSecond } = this.#options;
    let pause = Math.max(minMs, factor * busy);
    if (freshnessMs !== undefined) pause = Math.min(pause, Math.max(minMs, freshnessMs - wall));
    if (averagePerSecond !== undefined) {
      pause = Math.max(pause, (spent / averagePerSecond) * 1000 - wall);
    }
    this.#nextPauseMs = pause;
  }

  #schedule(ms: number): void {
    if (this.#stop.signal.aborted || !this.#watch.watched) return;
    this.#clearTimer();
    const timer = this.#timers.setTimeout(() => {
      this.#timer = undefined;
      if (this.#watch.watched) this.run().catch(() => {});
    }, ms);
    this.#timers.unref(timer);
    this.#timer = timer;
  }

  #clearTimer(): void {
    if (this.#timer !== undefined) this.#timers.clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #onWake(): void {
    if (this.#stop.signal.aborted || this.#inFlight || this.#timer !== undefined) return;
    if (this.#endedAt === -Infinity && !this.#options.startOnWake) return;
    this.#schedule(Math.max(0, this.#endedAt + this.#options.minMs - this.#timers.now()));
  }
}
