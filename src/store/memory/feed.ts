/**
 * The change feed's part of the memory store (see `../feed.ts`): what Redis
 * keeps under the board's root, kept in the process for the boards over
 * one memory source, on the store's clock.
 *
 * @module
 */

import type {
  FeedPositions,
  FeedStore,
  LiveMark,
  LiveRow,
  LiveState,
  LiveStateWrite,
  LiveSummary,
} from "../feed.ts";

/**
 * The feed's positions, live state and demand of one memory store. Values
 * are copied in and out (through JSON, as Redis would), so a caller that
 * changes what it wrote or read changes nothing kept.
 */
export class MemoryFeedStore implements FeedStore {
  readonly #now: () => number;
  #positions = new Map<string, string>();
  #summary: string | null = null;
  #asOf = 0;
  readonly #rows = new Map<string, string>();
  #demandUntil = -Infinity;
  readonly #marks: Partial<Record<LiveMark, string>> = {};

  /** `now` is the store's clock, ms. */
  constructor(now: () => number) {
    this.#now = now;
  }

  readFeedPositions(): Promise<Map<string, string>> {
    return Promise.resolve(new Map(this.#positions));
  }

  saveFeedPositions(positions: FeedPositions, removed: readonly string[] = []): Promise<void> {
    for (const [task, id] of positions) this.#positions.set(task, id);
    for (const task of removed) this.#positions.delete(task);
    return Promise.resolve();
  }

  writeLiveState({ asOf, index, rows = [], removed = [] }: LiveStateWrite): Promise<void> {
    this.#asOf = asOf;
    if (index) this.#summary = JSON.stringify(index);
    for (const row of rows) this.#rows.set(row.name, JSON.stringify(row));
    for (const task of removed) this.#rows.delete(task);
    return Promise.resolve();
  }

  readLiveSummary(): Promise<LiveSummary | null> {
    const index = this.#summary;
    if (index === null) return Promise.resolve(null);
    return Promise.resolve({
      asOf: this.#asOf,
      index: JSON.parse(index),
      marks: { ...this.#marks },
    });
  }

  readLiveRows(tasks: readonly string[]): Promise<(LiveRow | null)[]> {
    return Promise.resolve(tasks.map((task) => {
      const row = this.#rows.get(task);
      return row === undefined ? null : JSON.parse(row) as LiveRow;
    }));
  }

  async readLiveState(): Promise<LiveState | null> {
    const summary = await this.readLiveSummary();
    if (summary === null) return null;
    const rows = new Map<string, LiveRow>();
    for (const [task, row] of this.#rows) rows.set(task, JSON.parse(row));
    return { ...summary, rows };
  }

  mark(mark: LiveMark): Promise<void> {
    this.#marks[mark] = crypto.randomUUID();
    return Promise.resolve();
  }

  noteFeedDemand(ttlMs: number): Promise<void> {
    this.#demandUntil = Math.max(this.#demandUntil, this.#now() + ttlMs);
    return Promise.resolve();
  }

  hasFeedDemand(): Promise<boolean> {
    return Promise.resolve(this.#now() < this.#demandUntil);
  }
}
