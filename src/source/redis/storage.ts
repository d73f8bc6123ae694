/**
 * The storage footprint of one task, estimated without scanning the keyspace.
 *
 * @module
 */

import type { TaskStorage } from "../types.ts";
import { metricKey, taskKeys } from "../wire/keys.ts";
import type { Command, RedisConnection } from "./client.ts";

/** Job ids sampled per structure for the per-job memory estimate. */
const SAMPLE_PER_STRUCTURE = 10;

const MINUTE = 60_000;
/** Metric keys live 24 h: the minutes to look for. */
const METRIC_MINUTES = 1440;

/**
 * Key count and memory of a task, in two pipelined round trips.
 *
 * Exact: the fixed keys (wait, prioritized, active, delayed, the finished
 * sets, events, stalled, marker) that exist, their MEMORY USAGE, and the
 * throughput counters of the last 24 h (one EXISTS over their names).
 * Estimated: job hashes are counted as the sum of the structure sizes (each
 * job sits in exactly one); log lists and the memory of hashes and logs are
 * extrapolated from a sample of up to 10 jobs per structure. Keys outside
 * that model (locks, concurrency counters, dedup keys) are not counted;
 * MEMORY USAGE of big collections is itself sampled by Redis.
 */
export async function getTaskStorage(
  connection: RedisConnection,
  task: string,
  prefix?: string,
  now = Date.now(),
): Promise<TaskStorage> {
  const keys = taskKeys(task, prefix);
  const structures = [
    { key: keys.wait, size: "LLEN", range: "LRANGE" },
    { key: keys.prioritized, size: "ZCARD", range: "ZRANGE" },
    { key: keys.active, size: "LLEN", range: "LRANGE" },
    { key: keys.delayed, size: "ZCARD", range: "ZRANGE" },
    { key: keys.completed, size: "ZCARD", range: "ZREVRANGE" },
    { key: keys.failed, size: "ZCARD", range: "ZREVRANGE" },
    { key: keys.expired, size: "ZCARD", range: "ZREVRANGE" },
    { key: keys.cancelled, size: "ZCARD", range: "ZREVRANGE" },
  ];
  const fixed = [...structures.map((s) => s.key), keys.events, keys.stalled, keys.marker];
  const lastMinute = Math.floor(now / MINUTE) * MINUTE;
  const metricKeys: string[] = [];
  for (let i = 0; i < METRIC_MINUTES; i++) {
    const bucket = lastMinute - i * MINUTE;
    metricKeys.push(
      metricKey(task, "completed", bucket, prefix),
      metricKey(task, "failed", bucket, prefix),
    );
  }

  const first: Command[] = [
    ...structures.map((s) => [s.size, s.key]),
    ...structures.map((s) => [s.range, s.key, "0", String(SAMPLE_PER_STRUCTURE - 1)]),
    ["EXISTS", ...fixed],
    ...fixed.map((key) => ["MEMORY", "USAGE", key]),
    ["EXISTS", ...metricKeys],
  ];
  const replies = await connection.pipeline(first);
  let at = 0;
  const sizes = replies.slice(at, at += structures.length) as number[];
  const samples = (replies.slice(at, at += structures.length) as string[][]).flat();
  const fixedCount = replies[at++] as number;
  const fixedMemory = (replies.slice(at, at += fixed.length) as (number | null)[])
    .reduce<number>((sum, n) => sum + (n ?? 0), 0);
  const metricCount = replies[at++] as number;

  const jobCount = sizes.reduce((sum, n) => sum + n, 0);
  let jobMemory = 0;
  let logCount = 0;
  let metricMemory = 0;
  const sampleIds = [...new Set(samples)];
  const second: Command[] = [
    ...sampleIds.map((id) => ["MEMORY", "USAGE", `${keys.jobPrefix}${id}`]),
    ...sampleIds.map((id) => ["MEMORY", "USAGE", `${keys.jobPrefix}${id}:logs`]),
  ];
  if (metricCount > 0) second.push(["MEMORY", "USAGE", metricKeys[0]]);
  if (second.length > 0) {
    const usage = (await connection.pipeline(second)) as (number | null)[];
    const hashes = usage.slice(0, sampleIds.length);
    const logs = usage.slice(sampleIds.length, sampleIds.length * 2);
    const seenHashes = hashes.filter((n): n is number => n !== null);
    const seenLogs = logs.filter((n): n is number => n !== null);
    if (seenHashes.length > 0) {
      const perJob = (seenHashes.reduce((s, n) => s + n, 0) + seenLogs.reduce((s, n) => s + n, 0)) /
        seenHashes.length;
      jobMemory = perJob * jobCount;
      logCount = Math.round((seenLogs.length / seenHashes.length) * jobCount);
    }
    // A metric key of the current minute may not exist; assume ~the size of a small string key.
    const metricSize = metricCount > 0 ? usage[usage.length - 1] ?? 64 : 0;
    metricMemory = metricSize * metricCount;
  }
  return {
    keyCount: fixedCount + jobCount + logCount + metricCount,
    memoryBytes: Math.round(fixedMemory + jobMemory + metricMemory),
  };
}
