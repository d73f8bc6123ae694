/**
 * What recording history costs: entries written per second by each store,
 * and, on Redis, the commands the board sends per recorded event (the
 * issue's target: at most 2, keeping up with 2,000 events/s).
 *
 * The stream is what a recorder sees: of every 10 jobs, 7 complete at once,
 * 2 retry once then complete, 1 fails three times; 10 tasks, 3 versions. The
 * recorder's read runs too (`readRecordedFields`: one script per task of a
 * batch, on job hashes laid out as taskora's), then one write of the batch.
 * Redis's commands are counted from `INFO commandstats`: those the board sent
 * (script calls) and, apart, those its scripts ran inside.
 * PostgreSQL is measured when it is installed.
 *
 * `deno run --allow-all tests/bench/history_store.ts [--events 20000] [--batch 200]`.
 */

import { RedisConnection } from "../../src/source/redis/client.ts";
import { readRecordedFields } from "../../src/source/redis/history_reads.ts";
import { taskKeys } from "../../src/source/wire/keys.ts";
import type { HistoryStore } from "../../src/history/store.ts";
import type { HistoryEntry } from "../../src/history/summary.ts";
import { createMemoryHistoryStore } from "../../src/store/memory/history.ts";
import { createPostgresHistoryStore } from "../../src/store/postgres/history.ts";
import { createRedisHistoryStore } from "../../src/store/redis/history/store.ts";
import { startPostgres } from "../helpers/postgres_server.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";

const option = (name: string, fallback: number) => {
  const at = Deno.args.indexOf(`--${name}`);
  return at < 0 ? fallback : Number(Deno.args[at + 1]);
};
const EVENTS = option("events", 20_000);
const BATCH = option("batch", 200);

/** The stream of events a recorder would see, as entries. */
function eventStream(): HistoryEntry[] {
  const entries: HistoryEntry[] = [];
  const start = Date.now() - 3_600_000;
  for (let job = 0; entries.length < EVENTS; job++) {
    const kind = job % 10;
    const attempts = kind < 7 ? 1 : kind < 9 ? 2 : 3;
    const createdAt = start + job * 10;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      const startedAt = createdAt + 50 + attempt * 1000;
      const last = attempt === attempts;
      entries.push({
        task: `task-${job % 10}`,
        id: `job-${job}`,
        event: `${startedAt + 200}-${attempt}`,
        attempt,
        outcome: !last ? "retrying" : kind === 9 ? "failed" : "completed",
        version: 1 + (job % 3),
        createdAt,
        startedAt,
        endedAt: startedAt + 20 + (job % 500),
        error: kind >= 7 && (!last || kind === 9) ? `gateway timeout #${attempt}` : null,
        errorShape: kind >= 7 ? "gateway timeout #N" : null,
      });
    }
  }
  return entries.slice(0, EVENTS);
}

function batches(entries: HistoryEntry[]): HistoryEntry[][] {
  const out: HistoryEntry[][] = [];
  for (let i = 0; i < entries.length; i += BATCH) out.push(entries.slice(i, i + BATCH));
  return out;
}

/** Writes every batch, reading first (when given) as the recorder would; returns events per second. */
async function record(
  store: HistoryStore,
  entries: HistoryEntry[],
  read?: (batch: HistoryEntry[]) => Promise<unknown>,
): Promise<number> {
  const started = performance.now();
  let cursor = 0;
  for (const batch of batches(entries)) {
    await read?.(batch);
    cursor += batch.length;
    await store.write({ entries: batch, cursors: { "task-0": `${cursor}-0` } });
  }
  return entries.length / ((performance.now() - started) / 1000);
}

async function commandCounts(url: string): Promise<Map<string, number>> {
  const client = await connectClient(url);
  try {
    const info = String(await client.sendCommand(["INFO", "commandstats"]));
    return new Map(
      [...info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)].map(([, name, n]) => [name, Number(n)]),
    );
  } finally {
    client.destroy();
  }
}

const entries = eventStream();
console.log(`${entries.length} events in batches of ${BATCH}`);

{
  const store = createMemoryHistoryStore();
  console.log(`memory: ${Math.round(await record(store, entries))} events/s`);
}

{
  const redis = await startRedis();
  const connection = new RedisConnection({ url: redis.url });
  try {
    await connection.ready();
    // The job hashes the recorder reads, as taskora leaves them.
    await connection.pipeline(entries.map((entry) => [
      "HSET",
      `${taskKeys(entry.task).jobPrefix}${entry.id}`,
      "ts",
      String(entry.createdAt),
      "attempt",
      String(entry.attempt),
      "_v",
      String(entry.version),
    ]));
    const store = createRedisHistoryStore({ connection });
    const before = await commandCounts(redis.url);
    const rate = await record(store, entries, (batch) =>
      readRecordedFields(
        connection,
        [...new Map(batch.map((entry) => [`${entry.task}\0${entry.id}`, entry])).values()]
          .map((entry) => ({ task: entry.task, jobId: entry.id })),
        false,
      ));
    const after = await commandCounts(redis.url);
    const delta = (name: string) => (after.get(name) ?? 0) - (before.get(name) ?? 0);
    // What the board sent: script calls (the recorder's read, one per task of a batch, and the
    // write); commandstats counts the commands scripts run inside under their own names too.
    const sent = delta("evalsha") + delta("eval") + delta("script|load");
    let all = 0;
    for (const name of after.keys()) if (name !== "info") all += delta(name);
    console.log(
      `redis: ${Math.round(rate)} events/s; ${(sent / entries.length).toFixed(3)} commands sent ` +
        `per event (target at most 2); ${((all - sent) / entries.length).toFixed(1)} run inside ` +
        "the scripts per event",
    );
    const holding = await store.holding();
    const historyKeys = await connection.call<string[]>(["KEYS", "*:board:{history}:*"]);
    const bytes = (await connection.pipeline(
      historyKeys.map((key) => ["MEMORY", "USAGE", key, "SAMPLES", "0"]),
    )).reduce((total: number, used) => total + Number(used), 0);
    console.log(
      `redis: holds ${holding.summaries} summaries in ${(bytes / 2 ** 20).toFixed(1)} MiB ` +
        `(${Math.round(bytes / holding.summaries)} bytes each, rollups and indexes included)`,
    );
  } finally {
    await connection.close();
    await redis.stop();
  }
}

const hasPostgres = (() => {
  try {
    return [...Deno.readDirSync("/usr/lib/postgresql")].length > 0;
  } catch {
    return false;
  }
})();
if (hasPostgres) {
  const server = await startPostgres();
  const store = createPostgresHistoryStore({ url: server.url });
  try {
    console.log(`postgres: ${Math.round(await record(store, entries))} events/s`);
  } finally {
    await store.close();
    await server.stop();
  }
} else {
  console.log("postgres: not installed, skipped");
}
