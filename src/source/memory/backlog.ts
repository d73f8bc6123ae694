/**
 * The backlog samples of a memory source (see `contract/forecast.ts`), as
 * the Redis source keeps them: one per minute, each dropped `keepMs` after
 * it was written.
 *
 * @module
 */

/** Backlog samples by minute, each with when it expires. */
export class BacklogSamples {
  readonly #samples = new Map<number, { expiresAt: number; backlog: Map<string, number> }>();
  readonly #now: () => number;

  /** Samples on the store's clock (ms). */
  constructor(now: () => number) {
    this.#now = now;
  }

  /** Keeps one minute's sample (merged into one already kept for it), for `keepMs`. */
  write(minute: number, backlog: ReadonlyMap<string, number>, keepMs: number): void {
    this.#prune();
    if (backlog.size === 0) return;
    const kept = this.#samples.get(minute)?.backlog ?? new Map<string, number>();
    for (const [task, count] of backlog) kept.set(task, count);
    this.#samples.set(minute, { expiresAt: this.#now() + keepMs, backlog: kept });
  }

  /** A task's backlog in each named minute's sample, null where none is kept. */
  read(task: string, minutes: readonly number[]): (number | null)[] {
    this.#prune();
    return minutes.map((minute) => this.#samples.get(minute)?.backlog.get(task) ?? null);
  }

  #prune(): void {
    const now = this.#now();
    for (const [minute, { expiresAt }] of this.#samples) {
      if (expiresAt <= now) this.#samples.delete(minute);
    }
  }
}
