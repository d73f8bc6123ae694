/**
 * The history's PostgreSQL schema, created on first connect and versioned
 * (`history_meta.schema`): job summaries and their attempts partitioned by
 * the day the job was created (a partition per day, made when first
 * written, dropped whole by retention) and each job's day by task and id
 * (`history_job_days`), rollups in one table keyed by
 * resolution, scope and bucket, and a function that merges two buckets the
 * way every store does (counters and sketch bins add, samples keep the larger).
 *
 * @module
 */

import type { Sql } from "postgres";
import { IncompatibleStoreError } from "../../errors.ts";

/**
 * The schema version this board writes. Version 2 added `history_job_days`;
 * a board of version 1 would write jobs without it, so it refuses this one.
 */
export const SCHEMA_VERSION = 2;

/** An arbitrary lock id: history writes, and the trims that drop rows under them, run one at a time. */
export const WRITE_LOCK = 0x71b0a4e;

/** Statements that create version 2, each safe to run again. */
const CREATE = [
  `CREATE TABLE IF NOT EXISTS history_meta (key text PRIMARY KEY, value text NOT NULL)`,
  // COLLATE "C": byte order, the order the other stores page in.
  `CREATE TABLE IF NOT EXISTS history_jobs (
    day date NOT NULL,
    task text COLLATE "C" NOT NULL,
    id text COLLATE "C" NOT NULL,
    version integer,
    state text NOT NULL,
    created_at bigint NOT NULL,
    latest_end bigint NOT NULL,
    rank bigint NOT NULL,
    runs integer NOT NULL,
    error_shape text,
    data_bytes integer,
    result_bytes integer,
    data text,
    result text,
    PRIMARY KEY (day, task, id)
  ) PARTITION BY RANGE (day)`,
  `CREATE INDEX IF NOT EXISTS history_jobs_job ON history_jobs (task, id)`,
  `CREATE INDEX IF NOT EXISTS history_jobs_newest ON history_jobs (latest_end DESC, task DESC, id DESC)`,
  `CREATE INDEX IF NOT EXISTS history_jobs_task_newest ON history_jobs (task, latest_end DESC, id DESC)`,
  // Which day's partition holds a job: a job's entries do not all carry its creation time
  // (taskora removed the job, and the recorder fell back to the event's), so its partition is
  // found here by task and id, one index probe, not by the day of an entry. A row goes with its
  // job: in the write that makes the job, and in the trims that drop the day or the job.
  `CREATE TABLE IF NOT EXISTS history_job_days (
    task text COLLATE "C" NOT NULL,
    id text COLLATE "C" NOT NULL,
    day date NOT NULL,
    PRIMARY KEY (task, id)
  )`,
  `CREATE INDEX IF NOT EXISTS history_job_days_day ON history_job_days (day)`,
  // A job by its id alone (a job page of a job taskora removed): the tasks holding it, in order,
  // from the index. Only a read uses it, so a version-2 board beside this one needs no new version.
  `CREATE INDEX IF NOT EXISTS history_job_days_id ON history_job_days (id, task)`,
  // What the caps dropped of each task that has summaries. A board of this version makes it on
  // connect; one that knew no such table would only leave a cut unsaid, so the version stays 2.
  `CREATE TABLE IF NOT EXISTS history_cuts (
    task text COLLATE "C" PRIMARY KEY,
    dropped bigint NOT NULL,
    newest_end bigint NOT NULL
  )`,
  `CREATE TABLE IF NOT EXISTS history_attempts (
    day date NOT NULL,
    task text COLLATE "C" NOT NULL,
    id text COLLATE "C" NOT NULL,
    event text NOT NULL,
    run integer NOT NULL,
    attempt integer NOT NULL,
    outcome text NOT NULL,
    started_at bigint,
    ended_at bigint NOT NULL,
    error text,
    PRIMARY KEY (day, task, id, event)
  ) PARTITION BY RANGE (day)`,
  `CREATE TABLE IF NOT EXISTS history_rollups (
    resolution text NOT NULL,
    scope text COLLATE "C" NOT NULL,
    bucket bigint NOT NULL,
    fields jsonb NOT NULL,
    PRIMARY KEY (resolution, scope, bucket)
  )`,
  `CREATE OR REPLACE FUNCTION history_merge(a jsonb, b jsonb) RETURNS jsonb
    LANGUAGE sql IMMUTABLE AS $$
      SELECT coalesce(jsonb_object_agg(key, CASE WHEN key IN ('backlog', 'oldest')
        THEN greatest((a ->> key)::numeric, (b ->> key)::numeric)
        ELSE coalesce((a ->> key)::numeric, 0) + coalesce((b ->> key)::numeric, 0) END), '{}')
      FROM (SELECT jsonb_object_keys(a) AS key UNION SELECT jsonb_object_keys(b)) AS keys
    $$`,
];

/** An arbitrary lock id: boards starting together create the schema one at a time. */
const SCHEMA_LOCK = 0x71b0a4d;

/** Creates the schema if it is not there; refuses one written by a newer board. */
export async function ensureSchema(sql: Sql): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${SCHEMA_LOCK})`;
    for (const statement of CREATE) await tx.unsafe(statement);
    const [row] = await tx`SELECT value FROM history_meta WHERE key = 'schema'`;
    if (row && Number(row.value) > SCHEMA_VERSION) {
      throw new IncompatibleStoreError(
        `The history's PostgreSQL schema is version ${row.value}; this board knows up to ${SCHEMA_VERSION}`,
      );
    }
    if (row && Number(row.value) < 2) {
      // Version 1 kept no days by job: each job's is the day its row is in (the earliest, for a
      // job that version already split across two days).
      await tx`INSERT INTO history_job_days (task, id, day)
        SELECT DISTINCT ON (task, id) task, id, day FROM history_jobs ORDER BY task, id, day
        ON CONFLICT (task, id) DO NOTHING`;
    }
    await tx`INSERT INTO history_meta (key, value) VALUES ('schema', ${String(SCHEMA_VERSION)})
      ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`;
  });
}

/** The day (UTC, `YYYY-MM-DD`) a time falls on: the partition it goes to. */
export function dayOf(at: number): string {
  return new Date(Math.floor(at / 86_400_000) * 86_400_000).toISOString().slice(0, 10);
}

/** A `date` column as the client reads it (a Date at UTC midnight) as `YYYY-MM-DD`. */
export function dayText(day: Date | string): string {
  return typeof day === "string" ? day : day.toISOString().slice(0, 10);
}

/** The partitions of one day, created if they are not there. */
export async function ensureDay(sql: Sql, day: string): Promise<void> {
  const suffix = day.replaceAll("-", "");
  const next = dayOf(Date.parse(day) + 86_400_000);
  for (const table of ["history_jobs", "history_attempts"]) {
    await sql.unsafe(
      `CREATE TABLE IF NOT EXISTS ${table}_${suffix} PARTITION OF ${table}
        FOR VALUES FROM ('${day}') TO ('${next}')`,
    );
  }
}

/** The days that have partitions, oldest first. */
export async function partitionDays(sql: Sql): Promise<string[]> {
  const rows = await sql`
    SELECT child.relname AS name FROM pg_inherits
    JOIN pg_class parent ON parent.oid = pg_inherits.inhparent
    JOIN pg_class child ON child.oid = pg_inherits.inhrelid
    WHERE parent.relname = 'history_jobs'`;
  return rows
    .map((row) => /_(\d{4})(\d{2})(\d{2})$/.exec(String(row.name)))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => `${match[1]}-${match[2]}-${match[3]}`)
    .sort();
}

/**
 * Drops one day's partitions and its jobs' rows of `history_job_days`, at
 * once and under the write lock, so no write finds a job by a day that is
 * gone; returns how many summaries it held.
 */
export async function dropDay(sql: Sql, day: string): Promise<number> {
  const suffix = day.replaceAll("-", "");
  return await sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${WRITE_LOCK})`;
    const [{ count }] = await tx.unsafe(`SELECT count(*) AS count FROM history_jobs_${suffix}`);
    await tx`DELETE FROM history_job_days WHERE day = ${day}`;
    await tx.unsafe(`DROP TABLE IF EXISTS history_jobs_${suffix}, history_attempts_${suffix}`);
    return Number(count);
  });
}
