/**
 * Audit entries the store refused when they happened (Redis down when a
 * bulk operation ended, or when a mutation's outcome was to be written),
 * kept in this process until the store takes them: at most
 * {@link LATE_ENTRIES} (past it the oldest go, counted in `lost` and
 * logged), retried every {@link LATE_RETRY_MS} in their order. Each says it
 * was written late (`late`: when it happened).
 *
 * @module
 */

import type { AuditLog, AuditRecord } from "../contract/audit.ts";

/** Entries kept for a late write at most. */
export const LATE_ENTRIES = 1_000;

/** Pause before the next attempt to write them, ms. */
export const LATE_RETRY_MS = 1_000;

/** Runs `run` after `ms`; returns what cancels it. */
export type Schedule = (run: () => Promise<void>, ms: number) => () => void;

/** The default {@link Schedule}: a timer that does not keep the process alive. */
export const scheduleTimer: Schedule = (run, ms) => {
  const timer = setTimeout(run, ms);
  Deno.unrefTimer(timer);
  return () => clearTimeout(timer);
};

/** An entry waiting for the store. */
export interface LateEntry {
  record: AuditRecord;
  log: AuditLog;
  /** The pending entry it replaces, removed once it is written. */
  replaces?: string;
  /** The record's key: a write whose earlier attempt the store applied unconfirmed finds it. */
  key?: string;
}

/** Writes one kept entry; rejects while the store refuses. */
export type WriteLate = (entry: LateEntry) => Promise<unknown>;

/** The entries of one trail waiting to be written. */
export class LateWrites {
  readonly #write: WriteLate;
  readonly #schedule: Schedule;
  readonly #kept: LateEntry[] = [];
  #cancel: (() => void) | null = null;
  #flushing = false;
  #lost = 0;

  /** Keeps entries for `write`, retried on `schedule`. */
  constructor(write: WriteLate, schedule: Schedule) {
    this.#write = write;
    this.#schedule = schedule;
  }

  /** Entries waiting. */
  get size(): number {
    return this.#kept.length;
  }

  /** Entries given up on: more than {@link LATE_ENTRIES} were waiting. */
  get lost(): number {
    return this.#lost;
  }

  /** Keeps an entry the store refused now, marked with when it happened. */
  keep(entry: LateEntry): void {
    this.#kept.push({
      ...entry,
      record: { ...entry.record, late: entry.record.late ?? entry.record.at },
    });
    if (this.#kept.length > LATE_ENTRIES) {
      const [gone] = this.#kept.splice(0, 1);
      this.#lost++;
      console.error("queue-board: too many audit entries wait for the store; lost", gone.record);
    }
    this.#retryLater();
  }

  /** Stops retrying (the entries still waiting are logged). */
  close(): void {
    this.#cancel?.();
    this.#cancel = null;
    for (const entry of this.#kept) {
      console.error("queue-board: the audit entry could not be written", entry.record);
    }
  }

  /** Writes what the store takes, in order; tries again later if it refuses. */
  async #flush(): Promise<void> {
    this.#cancel = null;
    this.#flushing = true;
    try {
      while (this.#kept.length > 0) {
        const entry = this.#kept[0];
        await this.#write(entry);
        // Entries kept meanwhile may have pushed it out already.
        const at = this.#kept.indexOf(entry);
        if (at >= 0) this.#kept.splice(at, 1);
      }
    } catch {
      // Still refused: the next attempt is scheduled below.
    } finally {
      this.#flushing = false;
    }
    this.#retryLater();
  }

  /** Schedules one attempt, unless one is scheduled or running, or nothing waits. */
  #retryLater(): void {
    if (this.#kept.length === 0 || this.#cancel || this.#flushing) return;
    this.#cancel = this.#schedule(() => this.#flush(), LATE_RETRY_MS);
  }
}
