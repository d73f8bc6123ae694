/**
 * How often one client may write to the audit trail: each client (a user,
 * else an address) has a budget a minute, and the whole board one more
 * (`totalPerMinute`). Refusals past it are counted and told with the
 * client's next recorded refusal (`dropped`); mutations past it are refused
 * (429) before they act. The table of clients is bounded
 * ({@link LIMIT_CLIENTS}, the least recently seen forgotten first), so a
 * flood costs a bounded write rate and bounded memory.
 *
 * @module
 */

/** Refusals of one client recorded in a minute at most. */
export const REFUSALS_PER_MINUTE = 30;

/** Refusals of every client together recorded in a minute at most. */
export const REFUSALS_PER_MINUTE_IN_ALL = 600;

/** Mutations one user (or address) may make in a minute: a person never comes near it. */
export const ACTIONS_PER_MINUTE = 300;

/** Clients a limit remembers at most. */
export const LIMIT_CLIENTS = 1_000;

const MINUTE = 60_000;

/** Options of {@link ClientLimit}. */
export interface ClientLimitOptions {
  /** Turns one client may take in a minute. */
  perMinute: number;
  /** Turns every client together may take in a minute; unbounded when absent. */
  totalPerMinute?: number;
  /** The clock (ms); `Date.now` by default. */
  now?: () => number;
}

/** Whether a client's turn is granted, and how many of its turns were refused before it. */
export interface LimitTurn {
  record: boolean;
  dropped: number;
}

interface Window {
  startedAt: number;
  taken: number;
  dropped: number;
}

/** A per-client budget a minute, with a budget for all clients together. */
export class ClientLimit {
  readonly #now: () => number;
  readonly #perMinute: number;
  readonly #total: Window = { startedAt: -Infinity, taken: 0, dropped: 0 };
  readonly #totalPerMinute: number;
  readonly #clients = new Map<string, Window>();

  /** An empty table. */
  constructor(options: ClientLimitOptions) {
    this.#now = options.now ?? Date.now;
    this.#perMinute = options.perMinute;
    this.#totalPerMinute = options.totalPerMinute ?? Infinity;
  }

  /** Clients remembered. */
  get size(): number {
    return this.#clients.size;
  }

  /**
   * Takes one turn of `client`: granted while its minute and the board's
   * have room, else counted as dropped (and told with its next granted turn).
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * const limit = new ClientLimit({ perMinute: 1, now: () => 0 });
   * assert.deepEqual(limit.take("ada"), { record: true, dropped: 0 });
   * assert.deepEqual(limit.take("ada"), { record: false, dropped: 0 });
   * assert.deepEqual(limit.take("bob"), { record: true, dropped: 0 });
   * ```
   */
  take(client: string): LimitTurn {
    const now = this.#now();
    let window = this.#clients.get(client);
    this.#clients.delete(client);
    if (!window || now - window.startedAt >= MINUTE) {
      window = { startedAt: now, taken: 0, dropped: window?.dropped ?? 0 };
    }
    this.#clients.set(client, window);
    if (this.#clients.size > LIMIT_CLIENTS) {
      this.#clients.delete(this.#clients.keys().next().value!);
    }
    const total = this.#total;
    if (now - total.startedAt >= MINUTE) Object.assign(total, { startedAt: now, taken: 0 });
    if (window.taken >= this.#perMinute || total.taken >= this.#totalPerMinute) {
      window.dropped++;
      return { record: false, dropped: 0 };
    }
    window.taken++;
    total.taken++;
    const dropped = window.dropped;
    window.dropped = 0;
    return { record: true, dropped };
  }
}
