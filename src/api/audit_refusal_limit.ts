/**
 * How many refusals of one client the audit trail records: at most
 * {@link REFUSALS_PER_MINUTE} a minute each, the rest counted and told with
 * the client's next recorded refusal (`dropped`). The table of clients is
 * bounded ({@link REFUSAL_CLIENTS}, the least recently seen forgotten first),
 * so a flood of refusals costs a bounded write rate and bounded memory.
 *
 * @module
 */

/** Refusals of one client recorded in a minute at most. */
export const REFUSALS_PER_MINUTE = 30;

/** Clients the limit remembers at most. */
export const REFUSAL_CLIENTS = 1_000;

const MINUTE = 60_000;

/** Options of {@link RefusalLimit}. */
export interface RefusalLimitOptions {
  /** The clock (ms); `Date.now` by default. */
  now?: () => number;
}

/** Whether to record a client's refusal, and how many of its refusals went unrecorded before it. */
export interface RefusalTurn {
  record: boolean;
  dropped: number;
}

interface Window {
  startedAt: number;
  recorded: number;
  dropped: number;
}

/** The per-client limit of recorded refusals. */
export class RefusalLimit {
  readonly #now: () => number;
  readonly #clients = new Map<string, Window>();

  /** An empty table. */
  constructor(options: RefusalLimitOptions = {}) {
    this.#now = options.now ?? Date.now;
  }

  /** Clients remembered. */
  get size(): number {
    return this.#clients.size;
  }

  /** Counts one refusal of `client`: recorded while its minute has room, else counted as dropped. */
  take(client: string): RefusalTurn {
    const now = this.#now();
    let window = this.#clients.get(client);
    this.#clients.delete(client);
    if (!window || now - window.startedAt >= MINUTE) {
      window = { startedAt: now, recorded: 0, dropped: window?.dropped ?? 0 };
    }
    this.#clients.set(client, window);
    if (this.#clients.size > REFUSAL_CLIENTS) {
      this.#clients.delete(this.#clients.keys().next().value!);
    }
    if (window.recorded >= REFUSALS_PER_MINUTE) {
      window.dropped++;
      return { record: false, dropped: 0 };
    }
    window.recorded++;
    const dropped = window.dropped;
    window.dropped = 0;
    return { record: true, dropped };
  }
}
