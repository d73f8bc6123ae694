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
