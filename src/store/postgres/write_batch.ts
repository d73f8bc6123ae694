/**
 * One batch of history entries written to PostgreSQL in a few statements,
 * whatever its size: the batch's jobs and already-written events are read
 * at once, each job in the day `history_job_days` says it is in (an entry's
 * creation time may be a fallback on another day: a new job's day is its
 * first entry's), the store's judgement (which entries are new, their run numbers,
 * each job's latest facts, the rollup increments) is made here in order,
 * then the attempts, the jobs with the new ones' days, and the rollups go in
 * one statement each.
 *
 * Writers take a transaction lock first, so two boards writing the same
 * job at once (a leader change) are serialised, not interleaved.
 *
 * @module
 */

import type postgres from "postgres";
import {
  addToBucket,
  bucketOf,
  entryIncrements,
  type Resolution,
  RESOLUTIONS,
  type RollupIncrement,
  scopeId,
  scopesOf,
} from "../../history/rollup.ts";
import { boundedError, type HistoryEntry, TERMINAL_OUTCOMES } from "../../history/summary.ts";
import { dayOf, dayText, WRITE_LOCK } from "./schema.ts";

/** Bucket fields being added up in one batch, by resolution, scope and bucket. */
export class PendingRollups {
  readonly #buckets = new Map<string, Record<string, number>>();
  /** Adds `by` to `field` (or keeps the larger sample) of the bucket of `at`. */
  add(scope: string, resolution: Resolution, at: number, field: string, by: number): void {
    const key = `${resolution}\0${scope}\0${bucketOf(at, resolution)}`;
    let fields = this.#buckets.get(key);
    if (!fields) this.#buckets.set(key, fields = {});
    addToBucket(fields, field, by);
  }
  /** Adds an entry's increment to every scope and resolution it counts in. */
  addEntry(entry: HistoryEntry, { at, field, by }: RollupIncrement): void {
    for (const scope of scopesOf(entry.task, entry.version)) {
      for (const resolution of RESOLUTIONS) this.add(scopeId(scope), resolution, at, field, by);
    }
  }
  /** The buckets as rows of `history_rollups`. */
  rows(): { resolution: string; scope: string; bucket: number; fields: Record<string, number> }[] {
    return [...this.#buckets].map(([key, fields]) => {
      const [resolution, scope, bucket] = key.split("\0");
      return { resolution, scope, bucket: Number(bucket), fields };
    });
  }
}

/** What the batch knows of one job as it goes. */
interface JobState {
  day: string;
  task: string;
  id: string;
  createdAt: number;
  existed: boolean;
  /** Whether this batch brought the job a new entry, so its row is written. */
  touched: boolean;
  runs: number;
  rank: number;
  /** The entry whose facts the job takes, when the batch brought a later one. */
  latest: HistoryEntry | null;
}

function keyOf(task: string, id: string): string {
  return `${task}\0${id}`;
}

/** Writes the entries (each once) inside `tx`, adding their increments to `pending`; returns how many were new. */
export async function writeEntries(
  tx: postgres.TransactionSql,
  entries: readonly HistoryEntry[],
  pending: PendingRollups,
): Promise<number> {
  await tx`SELECT pg_advisory_xact_lock(${WRITE_LOCK})`;
  if (entries.length === 0) return 0;
  const tasks = entries.map((entry) => entry.task);
  const ids = entries.map((entry) => entry.id);
  const events = entries.map((entry) => entry.event);
  const [existing, written] = await Promise.all([
    tx`SELECT j.day, j.task, j.id, j.created_at, j.runs, j.rank FROM history_job_days d
      JOIN history_jobs j ON (j.day, j.task, j.id) = (d.day, d.task, d.id)
      WHERE (d.task, d.id) IN (SELECT * FROM unnest(${tasks}::text[], ${ids}::text[]))`,
    tx`SELECT a.task, a.id, a.event
      FROM unnest(${tasks}::text[], ${ids}::text[], ${events}::text[]) AS e(task, id, event)
      JOIN history_job_days d ON (d.task, d.id) = (e.task, e.id)
      JOIN history_attempts a ON (a.day, a.task, a.id, a.event) = (d.day, d.task, d.id, e.event)`,
  ]);
  const jobs = new Map<string, JobState>();
  for (const row of existing) {
    jobs.set(keyOf(row.task, row.id), {
      day: dayText(row.day),
      task: row.task,
      id: row.id,
      createdAt: Number(row.created_at),
      existed: true,
      touched: false,
      runs: row.runs,
      rank: Number(row.rank),
      latest: null,
    });
  }
  const seen = new Set(written.map((row) => `${keyOf(row.task, row.id)}\0${row.event}`));
  const attempts: Record<string, unknown>[] = [];
  for (const entry of entries) {
    const key = keyOf(entry.task, entry.id);
    if (seen.has(`${key}\0${entry.event}`)) continue;
    seen.add(`${key}\0${entry.event}`);
    let job = jobs.get(key);
    const increments = entryIncrements(entry);
    if (!job) {
      const day = dayOf(entry.createdAt);
      jobs.set(
        key,
        job = { ...entry, day, existed: false, touched: true, runs: 0, rank: -1, latest: null },
      );
      pending.addEntry(entry, increments.firstOfJob);
    }
    job.touched = true;
    const run = job.runs + 1;
    attempts.push({
      day: job.day,
      task: entry.task,
      id: entry.id,
      event: entry.event,
      run,
      attempt: entry.attempt,
      outcome: entry.outcome,
      started_at: entry.startedAt,
      ended_at: entry.endedAt,
      error: boundedError(entry.error),
    });
    const rank = run * 1_000_000 + entry.attempt;
    if (rank >= job.rank) {
      job.rank = rank;
      job.latest = entry;
    }
    if (TERMINAL_OUTCOMES.has(entry.outcome)) {
      if (job.runs > 0) pending.addEntry(entry, increments.rerun);
      job.runs++;
    }
    for (const increment of increments.always) pending.addEntry(entry, increment);
  }
  if (attempts.length === 0) return 0;
  await tx`
    INSERT INTO history_attempts
    SELECT * FROM jsonb_to_recordset(${tx.json(attempts as postgres.JSONValue)}) AS row(
      day date, task text, id text, event text, run integer, attempt integer, outcome text,
      started_at bigint, ended_at bigint, error text)`;
  const touched = [...jobs.values()].filter((job) => job.touched);
  const rows = touched.map((job) => ({
    day: job.day,
    task: job.task,
    id: job.id,
    created_at: job.createdAt,
    runs: job.runs,
    // -1: nothing later in this batch, the stored facts stay.
    rank: job.latest ? job.rank : -1,
    version: job.latest?.version ?? null,
    state: job.latest?.outcome ?? "retrying",
    latest_end: job.latest?.endedAt ?? 0,
    error_shape: job.latest?.errorShape ?? null,
    data_bytes: job.latest?.dataBytes ?? null,
    result_bytes: job.latest?.resultBytes ?? null,
    data: job.latest?.data ?? null,
    result: job.latest?.result ?? null,
  }));
  const made = touched.filter((job) => !job.existed).map(({ task, id, day }) => ({
    task,
    id,
    day,
  }));
  await tx`
    WITH made AS (
      INSERT INTO history_job_days (task, id, day)
      SELECT * FROM jsonb_to_recordset(${tx.json(made)}) AS row(task text, id text, day date)
      ON CONFLICT (task, id) DO UPDATE SET day = EXCLUDED.day)
    INSERT INTO history_jobs (day, task, id, created_at, runs, rank, version, state, latest_end,
      error_shape, data_bytes, result_bytes, data, result)
    SELECT * FROM jsonb_to_recordset(${tx.json(rows)}) AS row(
      day date, task text, id text, created_at bigint, runs integer, rank bigint, version integer,
      state text, latest_end bigint, error_shape text, data_bytes integer, result_bytes integer,
      data text, result text)
    ON CONFLICT (day, task, id) DO UPDATE SET
      runs = EXCLUDED.runs,
      rank = greatest(history_jobs.rank, EXCLUDED.rank),
      version = CASE WHEN EXCLUDED.rank >= history_jobs.rank THEN EXCLUDED.version ELSE history_jobs.version END,
      state = CASE WHEN EXCLUDED.rank >= history_jobs.rank THEN EXCLUDED.state ELSE history_jobs.state END,
      latest_end = CASE WHEN EXCLUDED.rank >= history_jobs.rank THEN EXCLUDED.latest_end
        ELSE history_jobs.latest_end END,
      error_shape = CASE WHEN EXCLUDED.rank >= history_jobs.rank THEN EXCLUDED.error_shape
        ELSE history_jobs.error_shape END,
      data_bytes = coalesce(CASE WHEN EXCLUDED.rank >= history_jobs.rank THEN EXCLUDED.data_bytes END,
        history_jobs.data_bytes),
      result_bytes = coalesce(CASE WHEN EXCLUDED.rank >= history_jobs.rank THEN EXCLUDED.result_bytes END,
        history_jobs.result_bytes),
      data = coalesce(CASE WHEN EXCLUDED.rank >= history_jobs.rank THEN EXCLUDED.data END, history_jobs.data),
      result = coalesce(CASE WHEN EXCLUDED.rank >= history_jobs.rank THEN EXCLUDED.result END,
        history_jobs.result)`;
  return attempts.length;
}
