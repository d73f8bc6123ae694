/**
 * `GET /throughput`: finished jobs per bucket of time.
 *
 * @module
 */

/** One minute (or other bucket) of finished jobs. */
export interface ThroughputBucket {
  /** Start of the bucket (ms). */
  timestamp: number;
  /** Jobs completed in it. */
  completed: number;
  /** Jobs that failed for good in it. */
  failed: number;
}

/**
 * The header of `GET /throughput` that says when the counters were read
 * (ms since the epoch): up to about two minutes ago when the day the
 * board's leader keeps answered.
 */
export const AS_OF_HEADER = "X-As-Of";
