/**
 * The memory store's leases and shared results: the same as Redis keeps
 * for every board replica (`../redis/lease.ts`, `../redis/shared_results.ts`),
 * kept in the process, on the store's clock, for the boards over one store.
 *
 * @module
 */

import type { LeaseHold } from "../../leadership.ts";

interface Expiring<T> {
  value: T;
  until: number;
}

/** Leases, shared results and asked sets of one memory store. */
export class SharedBoard {
  readonly #now: () => number;
  readonly #leases = new Map<string, Expiring<string>>();
  readonly #results = new Map<string, Expiring<string>>();
  readonly #asked = new Map<string, Map<string, number>>();

  /** `now` is the store's clock, ms. */
  constructor(now: () => number) {
    this.#now = now;
  }

  /** Takes the lease for `holder` when free, renews it when `holder` holds it. */
  holdLease(name: string, holder: string, ttlMs: number): LeaseHold {
    const lease = this.#live(this.#leases, name);
    if (lease && lease.value !== holder) {
      return { held: false, expiresInMs: lease.until - this.#now() };
    }
    this.#leases.set(name, { value: holder, until: this.#now() + ttlMs });
    return { held: true, expiresInMs: ttlMs };
  }

  /** How long the lease runs on, ms (0 when nobody holds it). */
  leaseRemaining(name: string): number {
    const lease = this.#live(this.#leases, name);
    return lease ? lease.until - this.#now() : 0;
  }

  /** Gives the lease back when `holder` holds it. */
  releaseLease(name: string, holder: string): void {
    if (this.#live(this.#leases, name)?.value === holder) this.#leases.delete(name);
  }

  /** Shares `value` as `name` for `ttlMs`. */
  shareResult(name: string, value: string, ttlMs: number): void {
    this.#results.set(name, { value, until: this.#now() + ttlMs });
    // Expired ones go on each write, so the map holds what is live and no more.
    for (const key of this.#results.keys()) this.#live(this.#results, key);
  }

  /** The value shared as `name`, or null. */
  readSharedResult(name: string): string | null {
    return this.#live(this.#results, name)?.value ?? null;
  }

  /** Forgets the value shared as `name`. */
  removeSharedResult(name: string): void {
    this.#results.delete(name);
  }

  /** Notes `member` of `set` as asked now, keeping the `max` asked last. */
  noteAsked(set: string, member: string, max: number): void {
    const asked = this.#asked.get(set) ?? new Map<string, number>();
    asked.delete(member);
    asked.set(member, this.#now());
    while (asked.size > max) asked.delete(asked.keys().next().value!);
    this.#asked.set(set, asked);
  }

  /** The members of `set` asked within `withinMs`, newest first. */
  listAsked(set: string, withinMs: number): string[] {
    const since = this.#now() - withinMs;
    return [...this.#asked.get(set) ?? []].filter(([, at]) => at >= since)
      .map(([member]) => member).reverse();
  }

  #live(map: Map<string, Expiring<string>>, name: string): Expiring<string> | undefined {
    const entry = map.get(name);
    if (entry && entry.until <= this.#now()) {
      map.delete(name);
      return undefined;
    }
    return entry;
  }
}
