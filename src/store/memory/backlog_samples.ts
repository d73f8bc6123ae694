/**
 * The backlog samples of a memory store (see `contract/forecast.ts`), as
 * the Redis store keeps them: one per minute, each dropped `keepMs` after
 * it was written.
 *
 * @module
 */

import type { BacklogSample } from "../../contract/forecast.ts";

/** Backlog samples by minute, each with when it expires. */
export class BacklogSamples {
  readonly #samples = new Map<
    number,
    { expiresAt: number; samples: Map<string, BacklogSample> }
  >();
  readonly #now: () => number;

  /** Samples on the store's clock (ms). */
  constructor(now: () => number) {
    this.#now = now;
  }

  /** Keeps one minute's samples (merged into those already kept for it), for `keepMs`. */
  write(minute: number, samples: ReadonlyMap<string, BacklogSample>, keepMs: number): void {
    this.#prune();
    if (samples.size === 0) return;
    const kept = this.#samples.get(minute)?.samples ?? new Map<string, BacklogSample>();
    for (const [task, sample] of samples) kept.set(task, sample);
    this.#samples.set(minute, { expiresAt: this.#now() + keepMs, samples: kept });
  }

  /** A task's sample in each named minute, null where none is kept. */
  read(task: string, minutes: readonly number[]): (BacklogSample | null)[] {
    this.#prune();
    return minutes.map((minute) => this.#samples.get(minute)?.samples.get(task) ?? null);
  }

  #prune(): void {
    const now = this.#now();
    for (const [minute, { expiresAt }] of this.#samples) {
      if (expiresAt <= now) this.#samples.delete(minute);
    }
  }
}
