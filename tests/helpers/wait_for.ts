/**
 * The one way a test waits for something it does not drive to become true:
 * a server to answer, a worker to finish, a board to recover. Tests that
 * can drive the clock (fake timers, an injected `now`) move it instead.
 *
 * @module
 */

/** Options of {@link waitFor}. */
export interface WaitForOptions {
  /** What is waited for, as the error names it ("the cluster to be ok"). */
  what: string;
  /**
   * How long before giving up, ms (default 30,000). A guard against a hung
   * test, far above any expected wait: it asserts nothing about speed.
   */
  limitMs?: number;
  /** Pause between two looks, ms (default 20). */
  everyMs?: number;
}

/** What a condition returns once it holds: anything but false, null or undefined. */
export type Held<T> = Exclude<T, false | null | undefined>;

/**
 * Looks at `condition` until it holds (returns anything but false, null or
 * undefined), and returns what it returned then. A condition that throws has
 * not held yet (a node still starting refuses connections); if the limit
 * passes, the error names what was waited for, with the last thrown error as
 * its cause. The limit bounds each look too: a condition that never settles
 * (a request to a hung server) fails the wait at the limit, not never.
 *
 * @example
 * ```ts
 * import { waitFor } from "./wait_for.ts";
 * let ready = false;
 * setTimeout(() => ready = true, 0);
 * await waitFor(() => ready, { what: "ready" });
 * ```
 */
export async function waitFor<T>(
  condition: () => T | Promise<T>,
  { what, limitMs = 30_000, everyMs = 20 }: WaitForOptions,
): Promise<Held<T>> {
  // The monotonic clock: a test may stub Date.now, and a look may run with it stubbed.
  const giveUpAt = performance.now() + limitMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await withinLimit(condition(), giveUpAt - performance.now(), what);
      if (value !== false && value !== null && value !== undefined) return value as Held<T>;
    } catch (error) {
      lastError = error;
    }
    if (performance.now() > giveUpAt) {
      throw new Error(`gave up waiting for ${what}`, { cause: lastError });
    }
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** `value`, unless it has not settled `ms` from now: then a rejection naming `what`. */
async function withinLimit<T>(value: T | Promise<T>, ms: number, what: string): Promise<T> {
  if (!(value instanceof Promise)) return value;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`a look at ${what} did not settle`)),
      Math.max(0, ms),
    );
  });
  try {
    return await Promise.race([value, late]);
  } finally {
    clearTimeout(timer);
  }
}
