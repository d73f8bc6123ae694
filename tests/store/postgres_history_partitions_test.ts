/**
 * PostgreSQL history partitions: a day's partitions dropped by another
 * board's trim are made again when a late entry of that day is written,
 * instead of every later batch failing on a partition this board remembered
 * making; and `history_job_days` (each job's day, by task and id) keeps one
 * row per summary held: a dropped day and a cap take their jobs' rows with
 * them, and a version 1 schema gets its rows on the first connect.
 */

import assert from "node:assert/strict";
import postgres from "postgres";
import { createPostgresHistoryStore } from "../../src/store/postgres/history.ts";
import { acrossMidnight, entry, fallenBack, T0 } from "../contract/history_store_contract.ts";
import { startPostgres } from "../helpers/postgres_server.ts";

Deno.test("postgres history: a day another board's trim dropped is made again by the next write", async () => {
  const server = await startPostgres();
  const writer = createPostgresHistoryStore({ url: server.url });
  const trimmer = createPostgresHistoryStore({
    url: server.url,
    limits: { retentionMs: 86_400_000 },
  });
  try {
    await writer.write({ entries: [entry("first")] });
    assert.deepEqual(await trimmer.trim(T0 + 3 * 86_400_000), { removed: 1 });
    await writer.write({ entries: [entry("late", { endedAt: T0 + 5000 })] });
    assert.ok(await writer.summary("send-email", "late"));
  } finally {
    await writer.close();
    await trimmer.close();
    await server.stop();
  }
});

/** The jobs' rows and their days' rows, each as `task/id@day`, sorted. */
async function jobsAndDays(sql: postgres.Sql): Promise<{ jobs: string[]; days: string[] }> {
  const text = (rows: postgres.Row[]) =>
    rows.map((row) => `${row.task}/${row.id}@${row.day.toISOString().slice(0, 10)}`).sort();
  return {
    jobs: text(await sql`SELECT task, id, day FROM history_jobs`),
    days: text(await sql`SELECT task, id, day FROM history_job_days`),
  };
}

Deno.test("postgres history: a dropped day and a cap take their jobs' rows of history_job_days", async () => {
  const server = await startPostgres();
  const sql = postgres(server.url, { onnotice: () => {} });
  const store = createPostgresHistoryStore({
    url: server.url,
    limits: { retentionMs: 86_400_000, maxPerTask: 1 },
  });
  try {
    const old = T0 - 2 * 86_400_000;
    await store.write({
      entries: [
        entry("old", { createdAt: old, startedAt: old + 500, endedAt: old + 1000 }),
        entry("young"),
        entry("newest", { endedAt: T0 + 9000 }),
      ],
    });
    const day = (at: number) => new Date(at).toISOString().slice(0, 10);
    assert.deepEqual((await jobsAndDays(sql)).days, [
      `send-email/newest@${day(T0)}`,
      `send-email/old@${day(old)}`,
      `send-email/young@${day(T0)}`,
    ]);
    // The day of "old" is dropped whole; the cap of 1 a task then drops "young".
    assert.deepEqual(await store.trim(T0 + 86_400_000), { removed: 2 });
    assert.deepEqual(await jobsAndDays(sql), {
      jobs: [`send-email/newest@${day(T0)}`],
      days: [`send-email/newest@${day(T0)}`],
    });
  } finally {
    await store.close();
    await sql.end();
    await server.stop();
  }
});

Deno.test("postgres history: a version 1 schema gets each job's day on the first connect", async () => {
  const server = await startPostgres();
  const sql = postgres(server.url, { onnotice: () => {} });
  try {
    const entries = acrossMidnight("late");
    const first = createPostgresHistoryStore({ url: server.url });
    await first.write({ entries });
    await first.close();
    // What a board of version 1 left: its jobs, no days by job.
    await sql`DROP TABLE history_job_days`;
    await sql`UPDATE history_meta SET value = '1' WHERE key = 'schema'`;
    const next = createPostgresHistoryStore({ url: server.url });
    try {
      assert.deepEqual(await next.write({ entries: fallenBack(entries) }), { recorded: 0 });
      assert.equal((await next.holding()).summaries, 1);
      const { jobs, days } = await jobsAndDays(sql);
      assert.deepEqual(days, jobs);
      const [{ value }] = await sql`SELECT value FROM history_meta WHERE key = 'schema'`;
      assert.equal(value, "2");
    } finally {
      await next.close();
    }
  } finally {
    await sql.end();
    await server.stop();
  }
});
