/**
 * The mechanics that hold a task's jobs back, as their keys show them (see
 * `source/wire/mechanics.ts`): concurrency keys in use, throttle windows,
 * pending debounces, dedup keys and collect buffers. They are found by a
 * SCAN of the keyspace, so a read is a bounded step a user starts (a scan
 * slot held for it) and goes on from a cursor, never a full SCAN per request.
 *
 * @module
 */

/** Most SCAN calls (of 1,000 keys each) one step makes. */
export const MECHANICS_SCAN_CALLS = 10;

/** A step stops once it found this many keys of mechanisms. */
export const MECHANICS_STEP_ENTRIES = 1000;

/** One key of a mechanism, with what it holds. */
export type MechanismEntry =
  /** `conc:<key>`: jobs of this concurrency key running now. */
  | { kind: "concurrency"; key: string; count: number }
  /** `throttle:<key>`: dispatches counted in the window, which ends in `resetsInMs`. */
  | { kind: "throttle"; key: string; count: number; resetsInMs: number | null }
  /** `debounce:<key>`: the pending job a later dispatch would replace, and when it runs. */
  | { kind: "debounce"; key: string; jobId: string | null; runAt: number | null }
  /** `dedup:<key>`: the job later dispatches fold into, and its state. */
  | { kind: "dedup"; key: string; jobId: string | null; state: string | null }
  /** `collect:<key>`: items buffered, the first and last push, the flush job and when it runs. */
  | {
    kind: "collect";
    key: string;
    size: number;
    firstAt: number | null;
    lastAt: number | null;
    flushJobId: string | null;
    flushAt: number | null;
  };

/** What one step of a mechanics scan found. */
export interface MechanicsStep {
  /** The keys of mechanisms found in this step, with their values. */
  entries: MechanismEntry[];
  /** SCAN calls made (each looks at about 1,000 keys of the keyspace). */
  scanCalls: number;
  /** Where the next step goes on from; null when the keyspace is done. */
  cursor: string | null;
}

/**
 * An entry as the route answers it, with `id`: the same for the same key on
 * every step, so that a key SCAN returns twice (it may, across a rehash, or
 * on two masters while a cluster slot moves) is counted once; an HMAC of the
 * key under a key derived from the session secret (drawn by the board
 * process without one), so a user who may not read the key learns nothing of
 * it but that two entries are one key.
 */
export type FoundMechanism = MechanismEntry & { id: string };

/** The answer of `GET /tasks/{task}/mechanics?cursor=`. */
export type MechanicsResponse =
  & { task: string; readAt: number }
  & (
    | { known: true; entries: FoundMechanism[]; scanCalls: number; cursor: string | null }
    | { known: false; reason: string }
  );

/** A cursor of a mechanics scan: `<master index>-<SCAN cursor>`. */
export const MECHANICS_CURSOR = /^\d{1,4}-\d{1,20}$/;
