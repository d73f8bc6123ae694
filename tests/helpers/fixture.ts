/**
 * The real taskora keyspace dump (`tests/fixtures/taskora-wire6-sample.json`)
 * and a loader that writes it into Redis exactly.
 *
 * @module
 */

import { createClient } from "redis";
import type { QueueStats } from "../../src/source/types.ts";

/** One key of the dump. */
export type FixtureKey =
  | { type: "hash"; pttl: number; value: Record<string, string> }
  | { type: "list" | "set"; pttl: number; value: string[] }
  | { type: "zset"; pttl: number; value: { value: string; score: number }[] }
  | { type: "stream"; pttl: number; value: { id: string; fields: Record<string, string> }[] }
  | { type: "string"; pttl: number; value: string };

/** The dump: when it was taken and every key. */
export interface Fixture {
  dumpedAt: number;
  keys: Record<string, FixtureKey>;
}

const FIXTURE_URL = new URL("../fixtures/taskora-wire6-sample.json", import.meta.url);
const MINUTE = 60_000;

/** The dump as taskora wrote it, its times those of the day it was taken. */
function readDump(): Fixture {
  return JSON.parse(Deno.readTextFileSync(FIXTURE_URL));
}

/**
 * The moment the fixture reads as just dumped: when this module was loaded.
 * One value per isolate, so every test sees the same times. An isolate runs a
 * batch of test files (`scripts/test.ts`), minutes long under load: a test
 * that holds the fixture against a board's real clock reads it with
 * `readFixture(Date.now())`.
 */
export const FIXTURE_NOW: number = Date.now();

/**
 * How far every time of the fixture is moved so that it reads as if it had
 * been dumped at `at`: that − `dumpedAt`, in whole minutes so the throughput
 * counters stay on their minute boundaries.
 */
function shiftTo(at: number): number {
  return Math.floor((at - readDump().dumpedAt) / MINUTE) * MINUTE;
}

/** How far every time of the fixture is moved: to read as dumped at {@link FIXTURE_NOW}. */
export const FIXTURE_SHIFT: number = shiftTo(FIXTURE_NOW);

/** When the fixture, moved by {@link FIXTURE_SHIFT}, was dumped. */
const FIXTURE_NOW_DUMPED_AT = readDump().dumpedAt + FIXTURE_SHIFT;

/** A time written in the fixture file (ms), as the loaded fixture holds it. */
export function fixtureTime(original: number): number {
  return original + FIXTURE_SHIFT;
}

/** Hash fields taskora writes as epoch milliseconds (jobs, workflows, `taskora:meta`). */
const TIME_FIELDS = new Set([
  "ts",
  "processedOn",
  "finishedOn",
  "cancelledAt",
  "expireAt",
  "createdAt",
  "writtenAt",
]);
/** Stream fields taskora writes as epoch milliseconds. */
const EVENT_TIME_FIELDS = new Set(["nextAttemptAt"]);
const METRIC = /^(.*:metrics:(?:completed|failed):)(\d+)$/;

function shiftText(value: string, shift: number): string {
  return String(Number(value) + shift);
}

function shiftFields(fields: Record<string, string>, times: ReadonlySet<string>, shift: number) {
  return Object.fromEntries(
    Object.entries(fields).map(([field, value]) => [
      field,
      times.has(field) ? shiftText(value, shift) : value,
    ]),
  );
}

/** A JSON text whose top-level `field` is a time, moved (logs' `timestamp`, schedules' `lastRun`). */
function shiftJsonField(text: string, field: string, shift: number): string {
  const value = JSON.parse(text);
  if (typeof value[field] !== "number") return text;
  return JSON.stringify({ ...value, [field]: value[field] + shift });
}

function rebaseKey(name: string, key: FixtureKey, shift: number): FixtureKey {
  switch (key.type) {
    case "hash":
      if (name.endsWith(":schedules")) {
        const configs = Object.entries(key.value).map((
          [schedule, json],
        ) => [schedule, shiftJsonField(json, "lastRun", shift)]);
        return { ...key, value: Object.fromEntries(configs) };
      }
      return { ...key, value: shiftFields(key.value, TIME_FIELDS, shift) };
    case "set":
      return key;
    case "list":
      return name.endsWith(":logs")
        ? { ...key, value: key.value.map((entry) => shiftJsonField(entry, "timestamp", shift)) }
        : key;
    case "zset":
      // Every sorted set of the dump is scored by time (prioritized: -(priority*1e13)+ts).
      return {
        ...key,
        value: key.value.map((m) => ({ value: m.value, score: m.score + shift })),
      };
    case "stream":
      return {
        ...key,
        value: key.value.map((entry) => {
          const [ms, sequence] = entry.id.split("-");
          return {
            id: `${shiftText(ms, shift)}-${sequence}`,
            fields: shiftFields(entry.fields, EVENT_TIME_FIELDS, shift),
          };
        }),
      };
    case "string":
      return key;
  }
}

function rebaseName(name: string, shift: number): string {
  const metric = METRIC.exec(name);
  return metric ? `${metric[1]}${shiftText(metric[2], shift)}` : name;
}

/**
 * The dump (a fresh copy each call) with every time moved by
 * {@link FIXTURE_SHIFT}: job, workflow and meta times, sorted-set scores,
 * stream ids, log and schedule times, and the minute of every throughput
 * counter. What a test reads is then as old as it was when taskora wrote it,
 * whatever day the test runs. Given `at`, moved to read as dumped then
 * instead: a test that holds the fixture against the board's real clock
 * passes `Date.now()`, and {@link fixtureTime} does not apply to it.
 */
export function readFixture(at?: number): Fixture {
  const shift = at === undefined ? FIXTURE_SHIFT : shiftTo(at);
  const dump = readDump();
  const keys: Fixture["keys"] = {};
  for (const [name, key] of Object.entries(dump.keys)) {
    keys[rebaseName(name, shift)] = rebaseKey(name, key, shift);
  }
  return { dumpedAt: dump.dumpedAt + shift, keys };
}

/** The minute (ms) the fixture's throughput counters count, once rebased. */
export const FIXTURE_METRIC_MINUTE: number = fixtureTime(
  Math.max(
    ...Object.keys(readDump().keys).flatMap((name) => {
      const metric = METRIC.exec(name);
      return metric ? [Number(metric[2])] : [];
    }),
  ),
);

/** Every task of the dump that has a key, sorted: what task discovery finds. */
export const FIXTURE_TASKS: readonly string[] = [
  "fetch-user",
  "notify",
  "orphan",
  "render",
  "report",
  "resize-image",
  "send-email",
  "slow",
  "square",
  "sum",
  "transcode",
];

/** Per-state counts of a task with no jobs. */
export const NO_JOBS: Readonly<QueueStats> = {
  waiting: 0,
  active: 0,
  delayed: 0,
  retrying: 0,
  failed: 0,
  completed: 0,
  cancelled: 0,
  expired: 0,
};

/** `send-email`'s counts in the dump: the task with a job in most states. */
export const SEND_EMAIL_STATS: Readonly<QueueStats> = {
  ...NO_JOBS,
  delayed: 1,
  failed: 5,
  completed: 10,
  cancelled: 1,
};

/** Options of {@link loadFixture}. */
export interface LoadFixtureOptions {
  /**
   * Moves the throughput counters (all in one minute) into the minute
   * holding this time (ms), for tests of the current, still-open minute.
   * Every other key is written as {@link readFixture} gives it.
   */
  metricsAt?: number;
  /**
   * Writes the fixture as dumped at this time (ms; see {@link readFixture}):
   * `Date.now()` where a board on the real clock reads it, as a batch of
   * test files may run the test minutes after {@link FIXTURE_NOW}.
   */
  at?: number;
}

/** What `loadFixture` can write with: a node-redis client. */
export interface CommandSender {
  sendCommand(args: string[]): Promise<unknown>;
}

function commandsFor(name: string, key: FixtureKey): string[][] {
  switch (key.type) {
    case "hash":
      return [["HSET", name, ...Object.entries(key.value).flat()]];
    case "list":
      return [["RPUSH", name, ...key.value]];
    case "set":
      return [["SADD", name, ...key.value]];
    case "zset":
      return [["ZADD", name, ...key.value.flatMap((m) => [String(m.score), m.value])]];
    case "stream":
      return key.value.map((entry) => [
        "XADD",
        name,
        entry.id,
        ...Object.entries(entry.fields).flat(),
      ]);
    case "string":
      return [["SET", name, key.value]];
  }
}

/**
 * Writes every key of a dump into Redis: hashes with HSET, lists with RPUSH in
 * order, sets with SADD, sorted sets with ZADD, streams with XADD and their ids, strings with
 * SET, and PEXPIRE for keys that had a TTL.
 */
export async function writeKeyspace(target: string | CommandSender, dump: Fixture): Promise<void> {
  const commands: string[][] = [];
  for (const [name, key] of Object.entries(dump.keys)) {
    commands.push(...commandsFor(name, key));
    if (key.pttl > 0) commands.push(["PEXPIRE", name, String(key.pttl)]);
  }
  let client: CommandSender;
  let owned: ReturnType<typeof createClient> | null = null;
  if (typeof target === "string") {
    owned = createClient({ url: target });
    owned.on("error", () => {});
    await owned.connect();
    client = owned as unknown as CommandSender;
  } else {
    client = target;
  }
  try {
    await Promise.all(commands.map((args) => client.sendCommand(args)));
  } finally {
    await owned?.close();
  }
}

/**
 * Writes the fixture, rebased to {@link FIXTURE_NOW} or `options.at` (see {@link readFixture}), into Redis
 * exactly (see {@link writeKeyspace}), its throughput counters optionally
 * moved to another minute, with the failed set's scores (the failures they
 * count, read with them: `redis/failed_minutes.ts`), none of those after
 * `metricsAt`. Returns the names written.
 */
export async function loadFixture(
  target: string | CommandSender,
  options: LoadFixtureOptions = {},
): Promise<string[]> {
  const fixture = readFixture(options.at);
  const metricMinute = FIXTURE_METRIC_MINUTE + (fixture.dumpedAt - FIXTURE_NOW_DUMPED_AT);
  const move = options.metricsAt === undefined
    ? 0
    : Math.floor(options.metricsAt / MINUTE) * MINUTE - metricMinute;
  // A failure moved with the counters stays at most at `metricsAt` (the caller's now): moved as
  // far as the counters, a failure 10 min old in the dump fell up to 48 s in the future, and a
  // bulk retry started meanwhile left the job alone as one a worker failed after its start.
  const failedAt = (score: number) => Math.min(score + move, options.metricsAt ?? Infinity);
  const keys: Fixture["keys"] = {};
  for (const [name, key] of Object.entries(fixture.keys)) {
    const metric = METRIC.exec(name);
    keys[metric ? `${metric[1]}${Number(metric[2]) + move}` : name] = key.type === "zset" &&
        name.endsWith(":failed")
      ? { ...key, value: key.value.map((m) => ({ value: m.value, score: failedAt(m.score) })) }
      : key;
  }
  await writeKeyspace(target, { ...fixture, keys });
  return Object.keys(keys);
}
