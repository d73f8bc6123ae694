/**
 * The dead-letter queue: `GET /dlq` and what its retries did.
 *
 * @module
 */

import type { JobResponse } from "./jobs.ts";

/** Failed jobs that share one error, once numbers, ids and hex are set aside. */
export interface DeadLetterGroup {
  /** The error with its variable parts replaced by placeholders. */
  pattern: string;
  /** One real error message of the group. */
  sample: string;
  /** How many failed jobs share it. */
  count: number;
  /** The tasks they belong to. */
  tasks: string[];
  /** When the first of them failed (ms). */
  firstSeen: number;
  /** When the last of them failed (ms). */
  lastSeen: number;
  /** A few of their job ids. */
  sampleJobIds: string[];
}

/**
 * The answer of `GET /dlq`: one page of failed jobs (of one group with
 * `?pattern=`) and every group.
 */
export interface DeadLettersResponse {
  /** How many failed jobs the list holds. */
  total: number;
  /** The jobs of the page, most recently failed first. */
  jobs: JobResponse[];
  /** The failures grouped by error, most frequent first. */
  groups: DeadLetterGroup[];
}

/** The answer of `POST /dlq/retry-all`. */
export interface DlqRetryResponse {
  /** Always true: a refused action is an error answer. */
  ok: true;
  /** How many failed jobs went back to waiting. */
  retried: number;
}
