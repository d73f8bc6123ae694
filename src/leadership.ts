/**
 * One leader among the board processes on one store: who does the
 * background work the others read the results of. Built on a named lease
 * of the store ({@link Lease}: `SET NX PX` in Redis, renewed and given back
 * by its holder only).
 *
 * @module
 */

import type { BoardStore } from "./store/types.ts";
import { systemTimers, type TimerId, type Timers } from "./timers.ts";

/** What a take-or-renew of a lease says. */
export interface LeaseHold {
  /** Whether the asking holder holds the lease now. */
  held: boolean;
  /** How long the lease runs on, ms, whoever holds it (0 when nobody does). */
  expiresInMs: number;
}

/** A named lease of the store, as a {@link Leadership} uses it. */
export interface Lease {
  /** Takes the lease for `holder` when free, or renews it when `holder` holds it. */
  hold(holder: string, ttlMs: number): Promise<LeaseHold>;
  /**
   * How long the lease runs on, ms, whoever holds it (0 when nobody does):
   * one read, no write, what a follower looks at between its takes.
   */
  remaining(): Promise<number>;
  /** Gives the lease back when `holder` holds it (else does nothing). */
  release(holder: string): Promise<void>;
}

/** Options of {@link Leadership}. */
export interface LeadershipOptions {
  /** How long a take or renewal holds the lease, ms (default 10,000): the takeover bound. */
  ttlMs?: number;
  /**
   * How long one {@link Leadership.leads} keeps this process competing, ms
   * (default 60,000): a process nobody asks gives the lease back and sends nothing.
   */
  keepMs?: number;
  /** The clock and timers it renews on (default the runtime's; tests pass fake ones). */
  timers?: Timers;
  /** This process's id as a holder (default a random UUID). */
  holder?: string;
}

/** The default lease period, ms. */
export const DEFAULT_LEASE_MS = 10_000;

/**
 * Whether this process leads. While it is asked ({@link leads}), the leader
 * renews the lease every third of its period; a follower, once a take found
 * the lease held, only looks how long it runs on ({@link Lease.remaining},
 * one read) when the lease it saw would run out, and takes it then if
 * nobody renewed it. So when the leader stops renewing (it died), a
 * follower leads within one lease period, as when it gives the lease back
 * ({@link close}, or a minute unasked): at the latest when the lease it had
 * renewed last would have run out. Before, a follower tried to take the
 * lease every third of its period, a script of three commands: most of what
 * a watched board that leads nothing sent (`tests/bench/replicas.ts`).
 * Without a lease (a store shared by no other process), it always leads.
 *
 * A leader counts its lease from when it asked for it, on its own clock, so
 * that it stops leading no later than the store lets the lease go, even
 * while the store does not answer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { type Lease, Leadership } from "./leadership.ts";
 *
 * let holder: string | null = null;
 * const lease: Lease = {
 *   hold: (who, ttlMs) => {
 *     holder ??= who;
 *     return Promise.resolve({ held: holder === who, expiresInMs: ttlMs });
 *   },
 *   remaining: () => Promise.resolve(holder === null ? 0 : 10_000),
 *   release: (who) => Promise.resolve(void (holder === who && (holder = null))),
 * };
 * const a = new Leadership(lease, { holder: "a" });
 * const b = new Leadership(lease, { holder: "b" });
 * a.leads(); // starts competing: the first take is under way
 * b.leads();
 * await new Promise((resolve) => setTimeout(resolve, 0));
 * assert.deepEqual([a.leads(), b.leads()], [true, false]);
 * await a.close(); // gives the lease back
 * await b.close();
 * ```
 */
export class Leadership {
  readonly #lease: Lease | null;
  readonly #ttlMs: number;
  readonly #keepMs: number;
  readonly #timers: Timers;
  /** This process's id as a holder of the lease. */
  readonly holder: string;
  readonly #listeners = new Set<(leads: boolean) => void>();
  /** Until when (own clock) the lease is ours, or -Infinity. */
  #until = -Infinity;
  #askedAt = -Infinity;
  #timer: TimerId | undefined;
  #turn: Promise<void> | null = null;
  #closed = false;
  /** Whether this process's last take found the lease another's: it then only looks until it runs out. */
  #follows = false;

  /** Creates the leadership; it competes from the first {@link leads}. */
  constructor(lease: Lease | null, options: LeadershipOptions = {}) {
    this.#lease = lease;
    this.#ttlMs = options.ttlMs ?? DEFAULT_LEASE_MS;
    this.#keepMs = options.keepMs ?? 60_000;
    this.#timers = options.timers ?? systemTimers;
    this.holder = options.holder ?? crypto.randomUUID();
  }

  /** The lease period, ms. */
  get ttlMs(): number {
    return this.#ttlMs;
  }

  /** Whether this process leads now, without asking (it keeps no process competing). */
  get isLeading(): boolean {
    return this.#lease === null || (!this.#closed && this.#timers.now() < this.#until);
  }

  /**
   * Whether this process leads now; asking keeps it competing for `keepMs`
   * (the first ask starts it, and answers false until the lease is taken).
   */
  leads(): boolean {
    if (this.#lease === null) return true;
    if (this.#closed) return false;
    this.#askedAt = this.#timers.now();
    if (this.#timer === undefined && this.#turn === null) this.#turn = this.#take();
    return this.isLeading;
  }

  /**
   * Keeps this process competing for `keepMs` more if it competes now;
   * unlike {@link leads}, never starts it, so it sends nothing of itself
   * (a request calls it: a lease write queued before the request's reads
   * would hold them while Redis pauses writes, as in a failover).
   */
  keep(): void {
    if (this.#timer !== undefined || this.#turn !== null) this.#askedAt = this.#timers.now();
  }

  /**
   * Settles once the take or renewal under way, if any, was answered and
   * told to the listeners: a just-started board (or one long unasked) knows
   * then whether it leads.
   */
  async turnSettled(): Promise<void> {
    await this.#turn;
  }

  /**
   * Calls `listener` after each take or renewal while competing, with
   * whether this process leads: the leader shares its results then, the
   * others read them. Returns the unsubscribe.
   */
  onTurn(listener: (leads: boolean) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Stops competing and gives the lease back if held (waits for a take under way). */
  async close(): Promise<void> {
    this.#closed = true;
    this.#clearTimer();
    await this.#turn;
    await this.#giveBack();
  }

  async #take(): Promise<void> {
    const askedAt = this.#timers.now();
    let next = this.#ttlMs / 3;
    try {
      // A follower looks whether the lease it saw still runs; it takes only one that ran out.
      const left = this.#follows ? await this.#lease!.remaining() : 0;
      if (left > 0) next = left + 1;
      else {
        const { held, expiresInMs } = await this.#lease!.hold(this.holder, this.#ttlMs);
        // Set even when closed meanwhile: close() gives back what this take got.
        this.#until = held ? askedAt + this.#ttlMs : -Infinity;
        this.#follows = !held && expiresInMs > 0;
        // A follower looks again when the lease it saw runs out.
        if (this.#follows) next = expiresInMs + 1;
      }
      if (this.#closed) return;
    } catch {
      // The store did not answer: the lease counts down on our clock alone.
    } finally {
      this.#turn = null;
    }
    // The next turn is set before the listeners hear of this one: a listener that asks (the
    // change feed, while needed) then finds a turn ahead and starts no take of its own, each of
    // which set one more turn (their number doubled every turn).
    this.#schedule(next);
    const leads = this.#timers.now() < this.#until;
    for (const listener of this.#listeners) listener(leads);
  }

  #schedule(ms: number): void {
    if (this.#closed) return;
    this.#clearTimer();
    const keepLeft = this.#askedAt + this.#keepMs - this.#timers.now();
    const timer = this.#timers.setTimeout(() => {
      this.#timer = undefined;
      // Nobody asked for a while: leave the lease to a process that is asked, and stop.
      if (this.#timers.now() - this.#askedAt >= this.#keepMs) {
        this.#turn = this.#giveBack().finally(() => this.#turn = null);
      } else this.#turn = this.#take();
    }, Math.max(0, Math.min(ms, keepLeft)));
    this.#timers.unref(timer);
    this.#timer = timer;
  }

  async #giveBack(): Promise<void> {
    if (this.#until === -Infinity) return;
    this.#until = -Infinity;
    await this.#lease!.release(this.holder).catch(() => {});
  }

  #clearTimer(): void {
    if (this.#timer !== undefined) this.#timers.clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}

/**
 * The lease `name` of `store`, or null for a store no other board is given
 * (then this board always leads: there is nobody to lead).
 */
export function leaseOf(store: BoardStore, name: string): Lease | null {
  if (!store.shared) return null;
  return {
    hold: (holder, ttlMs) => store.holdLease(name, holder, ttlMs),
    remaining: () => store.leaseRemaining(name),
    release: (holder) => store.releaseLease(name, holder),
  };
}
