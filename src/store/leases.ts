/**
 * Leases, shared results and asked sets: how the boards on one store agree
 * on a leader and hand its results to the others (see `../leadership.ts`).
 *
 * @module
 */

import type { LeaseHold } from "../leadership.ts";

/** The leases, shared results and asked sets every board on the store shares. */
export interface LeaseStore {
  /**
   * Takes the lease `name` for `holder` for `ttlMs` when nobody holds it,
   * or renews it when `holder` does, atomically; says who holds it now.
   */
  holdLease(name: string, holder: string, ttlMs: number): Promise<LeaseHold>;
  /** How long the lease `name` runs on, ms, whoever holds it; 0 when nobody does. One read. */
  leaseRemaining(name: string): Promise<number>;
  /** Gives the lease `name` back when `holder` holds it (compared atomically), else nothing. */
  releaseLease(name: string, holder: string): Promise<void>;
  /** Shares `value` (a result of the leader's work) with every board on the store for `ttlMs`. */
  shareResult(name: string, value: string, ttlMs: number): Promise<void>;
  /** The value last shared as `name`, or null (never shared, or expired). */
  readSharedResult(name: string): Promise<string | null>;
  /** Forgets the value shared as `name` (a leader going away takes its results with it). */
  removeSharedResult(name: string): Promise<void>;
  /**
   * Notes that a board was asked for `member` of `set` now (the `max` asked
   * last are kept): what followers ask the leader to keep fresh.
   */
  noteAsked(set: string, member: string, max: number): Promise<void>;
  /** The members of `set` asked within the last `withinMs`, newest first. */
  listAsked(set: string, withinMs: number): Promise<string[]>;
}
