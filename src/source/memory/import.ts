/**
 * Builds a memory store from a dump of a taskora keyspace, so the memory
 * source answers with exactly the facts a Redis source reading that keyspace
 * would. The contract suite seeds both sources from the same dump
 * (`tests/fixtures/taskora-wire6-sample.json`).
 *
 * Keys are read with the wire module's `parseKey` and values with its
 * decoders, the same ones the Redis source uses.
 *
 * @module
 */

import { IncompatibleStoreError } from "../../errors.ts";
import { FINISHED_STATES, type FinishedState } from "../types.ts";
import { decodeJob, decodeLogs } from "../wire/decode.ts";
import { parseKey, SUPPORTED_WIRE_VERSIONS } from "../wire/keys.ts";
import { MemoryStore, type MemoryStoreOptions, type StoredJob, type StoredLock } from "./store.ts";

/** One sorted-set member of a dump. */
export interface DumpedMember {
  /** The member. */
  value: string;
  /** Its score. */
  score: number;
}

/** One key of a dump, by Redis type. `pttl` is -1 for keys without a TTL. */
export type DumpedKey =
  | { type: "hash"; pttl: number; value: Record<string, string> }
  | { type: "list" | "set"; pttl: number; value: string[] }
  | { type: "zset"; pttl: number; value: DumpedMember[] }
  | { type: "string"; pttl: number; value: string }
  | { type: "stream"; pttl: number; value: { id: string; fields: Record<string, string> }[] };

/** A keyspace dump: every key with its type, TTL and value. */
export interface KeyspaceDump {
  /** When the dump was taken (ms). */
  dumpedAt?: number;
  /** Every key by name. */
  keys: Record<string, DumpedKey>;
}

/** Options of an import. */
export interface ImportOptions extends MemoryStoreOptions {
  /** The taskora key prefix the dump was written with (none by default). */
  prefix?: string;
}

const METRIC = /^metrics:(completed|failed):(\d+)$/;
const FINISHED: readonly string[] = FINISHED_STATES;

/**
 * A store holding the dump's tasks, jobs, logs, throughput counters,
 * workflows and schedules. Keys that are not taskora's are ignored.
 *
 * @throws {IncompatibleStoreError} when the dump's `taskora:meta` names a wire
 * format this board does not read.
 */
export function importKeyspace(dump: KeyspaceDump, options: ImportOptions = {}): MemoryStore {
  const store = new MemoryStore(options);
  const structures: [string, string, DumpedKey][] = [];
  const logs: [string, string, string[]][] = [];
  let schedules: Record<string, string> = {};
  let nextRuns: DumpedMember[] = [];

  for (const [name, key] of Object.entries(dump.keys)) {
    const parsed = parseKey(name, options.prefix);
    if (!parsed) continue;
    if (parsed.kind === "global") {
      if (parsed.name === "meta" && key.type === "hash") checkWireVersion(key.value);
      else if (parsed.name === "schedules" && key.type === "hash") schedules = key.value;
      else if (parsed.name === "schedules:next" && key.type === "zset") nextRuns = key.value;
      else if (parsed.name === "schedules:lock" && key.type === "string") {
        store.schedulerLock = lockFrom(store, key);
      }
      continue;
    }
    if (parsed.kind === "workflow") {
      if (key.type === "hash") store.workflows.set(parsed.id, { ...key.value });
      continue;
    }
    const { task, rest } = parsed;
    store.task(task);
    if (key.type === "hash" && !rest.includes(":")) {
      const delay = Number(key.value.delay) || 0;
      store.putJob({
        ...decodeJob(task, rest, key.value),
        logs: [],
        ...(delay > 0 ? { delay } : {}),
      });
    } else if (key.type === "list" && rest.endsWith(":logs")) {
      logs.push([task, rest.slice(0, -":logs".length), key.value]);
    } else {
      structures.push([task, rest, key]);
    }
  }

  for (const [task, id, entries] of logs) {
    const job = store.tasks.get(task)?.jobs.get(id);
    if (!job) continue;
    job.logs = decodeLogs(entries);
    store.touch(job);
  }
  for (const [task, rest, key] of structures) placeStructure(store, task, rest, key);
  for (const [name, json] of Object.entries(schedules)) {
    const next = nextRuns.find((member) => member.value === name);
    store.schedules.set(name, { json, nextRun: next ? next.score : null });
  }
  return store;
}

function checkWireVersion(meta: Record<string, string>): void {
  const wire = Number(meta.wireVersion);
  const minCompat = Number(meta.minCompat ?? meta.wireVersion);
  if (!Number.isFinite(wire)) return;
  if (minCompat > SUPPORTED_WIRE_VERSIONS.max || wire < SUPPORTED_WIRE_VERSIONS.min) {
    throw new IncompatibleStoreError(
      `The keyspace was written in taskora wire format ${wire} (readable from ${minCompat}); ` +
        `this board reads ${SUPPORTED_WIRE_VERSIONS.min}–${SUPPORTED_WIRE_VERSIONS.max}`,
    );
  }
}

/** A lock string of the dump, expiring its `pttl` from now as a restored key would. */
function lockFrom(store: MemoryStore, key: DumpedKey & { type: "string" }): StoredLock {
  return { token: key.value, expiresAt: key.pttl > 0 ? store.now() + key.pttl : null };
}

/** Puts one of a task's lists, sets, counters, locks or stream into the store. */
function placeStructure(store: MemoryStore, task: string, rest: string, key: DumpedKey): void {
  const queue = store.task(task);
  const metric = METRIC.exec(rest);
  if (metric && key.type === "string") {
    store.countFinished(
      task,
      metric[1] as "completed" | "failed",
      Number(metric[2]),
      Number(key.value),
    );
    return;
  }
  switch (key.type) {
    case "string":
      if (rest.endsWith(":lock")) {
        queue.locks.set(rest.slice(0, -":lock".length), lockFrom(store, key));
      }
      return;
    case "set":
      if (rest === "stalled") { for (const id of key.value) queue.stalled.add(id); }
      return;
    case "list":
      // A dump lists a Redis list head first; the wait list is kept in run order (tail first).
      if (rest === "wait") queue.wait.push(...[...key.value].reverse());
      else if (rest === "active") queue.active.push(...key.value);
      return;
    case "zset":
      if (rest === "prioritized") {
        for (const { value, score } of key.value) queue.prioritized.add(value, score);
      } else if (rest === "delayed") {
        for (const { value, score } of key.value) {
          queue.delayed.add(value, score);
          const job: StoredJob | undefined = queue.jobs.get(value);
          if (job) job.runAt = score;
        }
      } else if (FINISHED.includes(rest)) {
        for (const { value, score } of key.value) {
          queue.finished[rest as FinishedState].add(value, score);
        }
      }
      return;
    case "stream":
      if (rest !== "events") return;
      queue.streamLength = key.value.length;
      for (const { id, fields: { event = "", jobId = "", ...fields } } of key.value) {
        queue.stream.push({
          task: queue.name,
          event,
          jobId,
          fields,
          at: Number(id.split("-")[0]),
          id,
        });
        queue.lastStreamId = id;
      }
      return;
  }
}
