/**
 * The job history on PostgreSQL (`history: { postgres: url }`), for months
 * of history and teams that outgrow Redis: the `postgres` client, the schema
 * of `schema.ts` created on first connect, one transaction per batch (the
 * entries, their rollups and the feed's last ids commit together), retention
 * by dropping a day's partitions.
 *
 * PostgreSQL going away answers {@link StoreUnavailableError} (a 503), and
 * the client connects again by itself on the next call.
 *
 * @module
 */

import postgres, { type Sql } from "postgres";
import { BoardError, StoreUnavailableError } from "../../errors.ts";
import {
  bucketOf,
  pointOf,
  RESOLUTIONS,
  ROLLUP_RETENTION_MS,
  type RollupPoint,
  sampleFields,
  scopeId,
} from "../../history/rollup.ts";
import {
  checkedRollupQuery,
  checkedSearch,
  decodeCursor,
  encodeCursor,
  type HistoryBatch,
  type HistoryHolding,
  type HistoryLimits,
  historyLimits,
  type HistoryPage,
  type HistoryStore,
  MAX_TASKS_OF_JOB,
  type RollupQuery,
  SEARCH_BUDGET,
} from "../../history/store.ts";
import { type AttemptRecord, type JobSummary, summaryOf } from "../../history/summary.ts";
import {
  dayOf,
  dayText,
  dropDay,
  ensureDay,
  ensureSchema,
  partitionDays,
  WRITE_LOCK,
} from "./schema.ts";
import { storableBatch, storableSearch, storableText } from "./storable_text.ts";
import { PendingRollups, writeEntries } from "./write_batch.ts";

/** Options of {@link createPostgresHistoryStore}. */
export interface PostgresHistoryOptions {
  /** `postgres://user:password@host:port/database` */
  url: string;
  /** How much it keeps (defaults: 7 days or 1M summaries). */
  limits?: Partial<HistoryLimits>;
  /** Longest wait for a connection, ms (default 2000). */
  connectTimeoutMs?: number;
}

/** Error codes of the client and the server that say the server cannot be reached or went away. */
const UNAVAILABLE =
  /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|CONNECT_TIMEOUT|CONNECTION_CLOSED|CONNECTION_ENDED|CONNECTION_DESTROYED|08\w{3}|57P\d\d)$/;

/** A failure of PostgreSQL's reachability as the board's 503; anything else as it is. */
function unavailable(error: unknown): unknown {
  if (error instanceof BoardError) return error;
  const code = String((error as { code?: unknown })?.code ?? "");
  if (UNAVAILABLE.test(code) || error instanceof Deno.errors.ConnectionRefused) {
    return new StoreUnavailableError(
      `PostgreSQL is unavailable (${code || (error as Error).message})`,
      { cause: error },
    );
  }
  return error;
}

/** A job row and its attempt rows as a summary. */
function summaryOfRows(job: postgres.Row, attempts: postgres.Row[]): JobSummary {
  return summaryOf(
    {
      task: job.task,
      id: job.id,
      version: job.version,
      createdAt: Number(job.created_at),
      errorShape: job.error_shape,
      ...(job.data_bytes === null ? {} : { dataBytes: job.data_bytes }),
      ...(job.result_bytes === null ? {} : { resultBytes: job.result_bytes }),
      ...(job.data === null ? {} : { data: job.data }),
      ...(job.result === null ? {} : { result: job.result }),
    },
    attempts.map((row): AttemptRecord => ({
      run: row.run,
      attempt: row.attempt,
      outcome: row.outcome,
      startedAt: row.started_at === null ? null : Number(row.started_at),
      endedAt: Number(row.ended_at),
      error: row.error,
    })),
  );
}

/** The summaries of the job rows, with their attempts read in one query, in the rows' order. */
async function summariesOf(sql: Sql, jobs: postgres.Row[]): Promise<JobSummary[]> {
  if (jobs.length === 0) return [];
  const attempts = await sql`
    SELECT * FROM history_attempts
    WHERE (day, task, id) IN (
      SELECT * FROM unnest(${jobs.map((job) => dayText(job.day))}::date[],
        ${jobs.map((job) => job.task)}::text[], ${jobs.map((job) => job.id)}::text[]))`;
  const byJob = new Map<string, postgres.Row[]>();
  for (const row of attempts) {
    const key = `${row.task}\0${row.id}`;
    byJob.set(key, [...byJob.get(key) ?? [], row]);
  }
  return jobs.map((job) => summaryOfRows(job, byJob.get(`${job.task}\0${job.id}`) ?? []));
}

/** A history store on PostgreSQL. */
export function createPostgresHistoryStore(options: PostgresHistoryOptions): HistoryStore {
  const limits = historyLimits(options.limits);
  const sql = postgres(options.url, {
    max: 4,
    connect_timeout: (options.connectTimeoutMs ?? 2000) / 1000,
    idle_timeout: 30,
    onnotice: () => {},
  });
  const days = new Set<string>();
  let schema: Promise<void> | null = null;

  /** Runs `work` once the schema is there, answering PostgreSQL's absence as a 503. */
  const run = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      schema ??= ensureSchema(sql).catch((error) => {
        schema = null;
        throw error;
      });
      await schema;
      return await work();
    } catch (error) {
      throw unavailable(error);
    }
  };

  /**
   * Drops the oldest summaries beyond `max` (of one task, or of all) with their
   * rows of `history_job_days`, under the write lock (a write must not find a
   * job by a day while its row goes); returns how many.
   */
  const cap = (max: number, task?: string) =>
    sql.begin(async (tx) => {
      await tx`SELECT pg_advisory_xact_lock(${WRITE_LOCK})`;
      const where = task === undefined ? tx`` : tx`WHERE task = ${task}`;
      const dropped = await tx`
        WITH dropped AS (
          DELETE FROM history_jobs WHERE (day, task, id) IN (
            SELECT day, task, id FROM history_jobs ${where}
            ORDER BY latest_end DESC, task DESC, id DESC OFFSET ${max})
          RETURNING day, task, id, latest_end),
        forgotten AS (
          DELETE FROM history_job_days WHERE (day, task, id) IN (SELECT day, task, id FROM dropped))
        SELECT * FROM dropped`;
      if (dropped.length === 0) return 0;
      await tx`
        DELETE FROM history_attempts WHERE (day, task, id) IN (
          SELECT * FROM unnest(${dropped.map((row) => dayText(row.day))}::date[],
            ${dropped.map((row) => row.task)}::text[], ${dropped.map((row) => row.id)}::text[]))`;
      await tx`
        INSERT INTO history_cuts (task, dropped, newest_end)
        SELECT task, count(*), max(newest) FROM unnest(${dropped.map((row) => row.task)}::text[],
          ${dropped.map((row) => Number(row.latest_end))}::bigint[]) AS d(task, newest)
        GROUP BY task
        ON CONFLICT (task) DO UPDATE SET dropped = history_cuts.dropped + EXCLUDED.dropped,
          newest_end = greatest(history_cuts.newest_end, EXCLUDED.newest_end)`;
      const newest = Math.max(...dropped.map((row) => Number(row.latest_end)));
      await tx`
        INSERT INTO history_meta (key, value) VALUES ('capDropped', ${String(dropped.length)}),
          ('capNewest', ${String(newest)})
        ON CONFLICT (key) DO UPDATE SET value = CASE history_meta.key
          WHEN 'capDropped' THEN (history_meta.value::bigint + EXCLUDED.value::bigint)::text
          ELSE greatest(history_meta.value::bigint, EXCLUDED.value::bigint)::text END`;
      return dropped.length;
    });

  return {
    write(given: HistoryBatch) {
      const batch = storableBatch(given);
      const writeOnce = async () => {
        for (const day of new Set(batch.entries.map((entry) => dayOf(entry.createdAt)))) {
          if (!days.has(day)) {
            await ensureDay(sql, day);
            days.add(day);
          }
        }
        return await sql.begin(async (tx) => {
          const pending = new PendingRollups();
          const recorded = await writeEntries(tx, batch.entries, pending);
          for (const sample of batch.samples ?? []) {
            for (const [field, value] of Object.entries(sampleFields(sample))) {
              for (const resolution of RESOLUTIONS) {
                pending.add(scopeId({ task: sample.task }), resolution, sample.at, field, value);
              }
            }
          }
          const rows = pending.rows();
          if (rows.length > 0) {
            await tx`
                INSERT INTO history_rollups (resolution, scope, bucket, fields)
                SELECT * FROM jsonb_to_recordset(${tx.json(rows)})
                  AS row(resolution text, scope text, bucket bigint, fields jsonb)
                ON CONFLICT (resolution, scope, bucket)
                DO UPDATE SET fields = history_merge(history_rollups.fields, EXCLUDED.fields)`;
          }
          const cursors = Object.entries(batch.cursors ?? {});
          if (cursors.length > 0) {
            await tx`
                INSERT INTO history_meta (key, value)
                SELECT 'c:' || key, value FROM jsonb_each_text(${
              tx.json(Object.fromEntries(cursors))
            })
                ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`;
          }
          return { recorded };
        });
      };
      return run(async () => {
        try {
          return await writeOnce();
        } catch (error) {
          // 23514, no partition for the row: another board's trim dropped a day this one had
          // made. Made again once; every other failure is the caller's.
          if ((error as { code?: string }).code !== "23514") throw error;
          days.clear();
          return await writeOnce();
        }
      });
    },
    cursors() {
      return run(async () => {
        const rows = await sql`SELECT key, value FROM history_meta WHERE key LIKE 'c:%'`;
        return Object.fromEntries(rows.map((row) => [row.key.slice(2), row.value]));
      });
    },
    summary(task, id) {
      return run(async () => {
        const stored = { task: storableText(task), id: storableText(id) };
        const jobs = await sql`
          SELECT * FROM history_jobs WHERE task = ${stored.task} AND id = ${stored.id}`;
        return (await summariesOf(sql, jobs))[0] ?? null;
      });
    },
    tasksOfJob(id) {
      return run(async () => {
        const rows = await sql`
          SELECT task FROM history_job_days WHERE id = ${storableText(id)}
          ORDER BY task LIMIT ${MAX_TASKS_OF_JOB}`;
        return rows.map((row) => row.task as string);
      });
    },
    search(query): Promise<HistoryPage> {
      return run(async () => {
        const checked = storableSearch(checkedSearch(query));
        const cursor = checked.cursor === undefined ? null : decodeCursor(checked.cursor);
        const position = cursor && {
          ...cursor,
          task: storableText(cursor.task),
          id: storableText(cursor.id),
        };
        const and = (condition: boolean, fragment: () => postgres.PendingQuery<postgres.Row[]>) =>
          condition ? fragment() : sql``;
        // The jobs one call looks at, as the Redis store does: the window's newest past the
        // cursor, at most SEARCH_BUDGET of them, read by the index whatever the filters, so a
        // search for text no job holds does not walk months of history.
        const looked = sql`
          SELECT * FROM history_jobs WHERE true
          ${and(checked.task !== undefined, () => sql`AND task = ${checked.task!}`)}
          ${and(checked.from !== undefined, () => sql`AND latest_end >= ${checked.from!}`)}
          ${and(checked.to !== undefined, () => sql`AND latest_end < ${checked.to!}`)}
          ${
          and(position !== null, () =>
            sql`AND (latest_end, task, id) < (${position!.at}, ${position!.task}, ${position!.id})`)
        }
          ORDER BY latest_end DESC, task DESC, id DESC
          LIMIT ${SEARCH_BUDGET}`;
        const jobs = await sql`
          SELECT * FROM (${looked}) j WHERE true
          ${and(checked.states !== undefined, () => sql`AND state IN ${sql(checked.states!)}`)}
          ${and(checked.version !== undefined, () => sql`AND version = ${checked.version!}`)}
          ${
          and(checked.idPrefix !== undefined, () => sql`AND starts_with(id, ${checked.idPrefix!})`)
        }
          ${
          and(checked.errorText !== undefined, () =>
            sql`AND EXISTS (SELECT 1 FROM history_attempts a
              WHERE a.day = j.day AND a.task = j.task AND a.id = j.id
              AND strpos(lower(a.error), lower(${checked.errorText!})) > 0)`)
        }
          ORDER BY latest_end DESC, task DESC, id DESC
          LIMIT ${checked.limit + 1}`;
        const page = jobs.slice(0, checked.limit);
        const summaries = await summariesOf(sql, page);
        const last = summaries.at(-1);
        if (jobs.length > page.length && last) {
          return {
            summaries,
            next: encodeCursor({ at: last.finishedAt, task: last.task, id: last.id }),
          };
        }
        // Fewer matches than asked: more may lie past the last job this call looked at.
        const [edge] = await sql`
          SELECT latest_end, task, id, count(*) OVER () AS looked FROM (${looked}) l
          ORDER BY latest_end, task, id LIMIT 1`;
        return {
          summaries,
          next: edge && Number(edge.looked) >= SEARCH_BUDGET
            ? encodeCursor({ at: Number(edge.latest_end), task: edge.task, id: edge.id })
            : null,
        };
      });
    },
    rollups(query: RollupQuery): Promise<RollupPoint[]> {
      return run(async () => {
        const { resolution, from, to, ...scope } = checkedRollupQuery(query);
        const rows = await sql`
          SELECT bucket, fields FROM history_rollups
          WHERE resolution = ${resolution} AND scope = ${storableText(scopeId(scope))}
            AND bucket >= ${bucketOf(from, resolution)} AND bucket < ${to}
          ORDER BY bucket`;
        return rows.map((row) => pointOf(Number(row.bucket), row.fields));
      });
    },
    // Its index by id is the table's own, kept from its first row.
    indexJobIds: () => Promise.resolve(false),
    trim(now) {
      return run(async () => {
        let removed = 0;
        const cutoff = now - limits.retentionMs;
        for (const day of await partitionDays(sql)) {
          if (Date.parse(day) + 86_400_000 > cutoff) break;
          removed += await dropDay(sql, day);
          days.delete(day);
        }
        for (const resolution of RESOLUTIONS) {
          await sql`DELETE FROM history_rollups WHERE resolution = ${resolution}
            AND bucket < ${now - ROLLUP_RETENTION_MS[resolution]}`;
        }
        const crowded = await sql`
          SELECT task FROM history_jobs GROUP BY task HAVING count(*) > ${limits.maxPerTask}`;
        for (const { task } of crowded) removed += await cap(limits.maxPerTask, task);
        removed += await cap(limits.maxSummaries);
        // A task left with no summaries has nothing a cut could be missing from.
        await sql`DELETE FROM history_cuts c
          WHERE NOT EXISTS (SELECT 1 FROM history_jobs j WHERE j.task = c.task)`;
        return { removed };
      });
    },
    holding(): Promise<HistoryHolding> {
      return run(async () => {
        const [{ count, oldest }] = await sql`
          SELECT count(*) AS count, min(latest_end) AS oldest FROM history_jobs`;
        const meta = Object.fromEntries(
          (await sql`SELECT key, value FROM history_meta WHERE key IN ('capDropped', 'capNewest')`)
            .map((row) => [row.key, Number(row.value)]),
        );
        return {
          summaries: Number(count),
          oldestAt: oldest === null ? null : Number(oldest),
          capped: meta.capDropped
            ? { dropped: meta.capDropped, newestDroppedAt: meta.capNewest }
            : null,
        };
      });
    },
    cuts(task) {
      return run(async () => {
        const rows = task === undefined
          ? await sql`SELECT * FROM history_cuts`
          : await sql`SELECT * FROM history_cuts WHERE task = ${storableText(task)}`;
        return new Map(rows.map((row) => [
          row.task as string,
          { dropped: Number(row.dropped), newestDroppedAt: Number(row.newest_end) },
        ]));
      });
    },
    async close() {
      await sql.end({ timeout: 2 });
    },
  };
}
