/**
 * The job ids this source has recently handed out, for finding a job by the
 * start of its id.
 *
 * Redis cannot answer "which key starts with 1a2b3c4d" without walking the
 * keyspace: SCAN with MATCH still visits every key (O(keys) per lookup, on
 * millions of keys), ZRANGEBYLEX only orders a sorted set whose members all
 * share one score (taskora's sets are scored by time), and keeping an index
 * of our own would mean writing into taskora's keyspace. But the short ids
 * an operator types are ones the board has shown: a table row, a workflow
 * node, a schedule's last run. So the source remembers the ids it served,
 * the newest {@link RecentJobIds.capacity} of them, and a prefix is matched
 * against those: O(capacity) string compares in memory, no Redis command.
 * A replica behind a load balancer that did not serve the page answers
 * 404 for the prefix; the whole id still works everywhere.
 *
 * @module
 */

import { RECENT_JOB_IDS } from "../../contract/job_lookup.ts";
import type { JobRef } from "../types.ts";

/** A bounded, least-recently-served-first memory of job ids and their tasks. */
export class RecentJobIds {
  /** Most ids kept; the least recently served go first. */
  readonly capacity: number;
  /** id → task, least recently served first (a Map keeps insertion order). */
  readonly #tasks = new Map<string, string>();

  /** An empty memory of at most `capacity` ids. */
  constructor(capacity = RECENT_JOB_IDS) {
    this.capacity = capacity;
  }

  /** How many ids are kept now. */
  get size(): number {
    return this.#tasks.size;
  }

  /** Remembers jobs the source served (moving known ones to the newest end). */
  note(jobs: Iterable<JobRef>): void {
    for (const { id, task } of jobs) {
      this.#tasks.delete(id);
      this.#tasks.set(id, task);
    }
    for (const oldest of this.#tasks.keys()) {
      if (this.#tasks.size <= this.capacity) break;
      this.#tasks.delete(oldest);
    }
  }

  /** Remembered jobs whose id starts with `prefix`, at most `limit`, sorted by id. */
  find(prefix: string, limit: number): JobRef[] {
    const found: JobRef[] = [];
    for (const [id, task] of this.#tasks) {
      if (id.startsWith(prefix)) found.push({ id, task });
    }
    return found.sort((a, b) => (a.id < b.id ? -1 : 1)).slice(0, limit);
  }
}
