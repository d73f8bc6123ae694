/**
 * Finding jobs by the start of their id across every task (`GET /jobs?prefix=`):
 * what the header's job-ID box lists when a start of an id opens no one job.
 *
 * @module
 */

import type { JobState } from "./states.ts";

/**
 * Shortest start of an id a job is looked up by. The UI shows 8 characters;
 * below 6 a prefix of a UUID names too many jobs to be useful.
 */
export const MIN_ID_PREFIX = 6;

/** Most jobs one lookup lists: a start of an id that fits more wants more of the id. */
export const MAX_LOOKUP_MATCHES = 20;

/**
 * How many job ids the Redis source remembers for the lookup (the newest it
 * served): a prefix search of taskora's keyspace would be a full SCAN.
 */
export const RECENT_JOB_IDS = 10_000;

/** A job whose id starts with the prefix looked up. */
export interface JobMatch {
  /** The whole id. */
  id: string;
  /** The task holding it. */
  task: string;
  /** Its state now (an archived job's: how its last attempt ended). */
  state: JobState;
  /** Set when taskora no longer holds it and the board's history found it. */
  archived?: true;
}

/** The answer of `GET /jobs?prefix=`. */
export interface JobLookup {
  /** The matches, sorted by id, at most {@link MAX_LOOKUP_MATCHES}. */
  jobs: JobMatch[];
  /** Whether more jobs match than are listed. */
  more: boolean;
}
