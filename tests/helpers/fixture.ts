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
  | { type: "list"; pttl: number; value: string[] }
  | { type: "zset"; pttl: number; value: { value: string; score: number }[] }
  | { type: "stream"; pttl: number; value: { id: string; fields: Record<string, string> }[] }
  | { type: "string"; pttl: number; value: string };

/** The dump: when it was taken and every key. */
export interface Fixture {
  dumpedAt: number;
  keys: Record<string, FixtureKey>;
}

const FIXTURE_URL = new URL("../fixtures/taskora-wire6-sample.json", import.meta.url);

/** The parsed dump (a fresh copy each call). */
export function readFixture(): Fixture {
  return JSON.parse(Deno.readTextFileSync(FIXTURE_URL));
}

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

const METRIC = /^(.*:metrics:(?:completed|failed):)(\d+)$/;

/** Options of {@link loadFixture}. */
export interface LoadFixtureOptions {
  /**
   * Moves the throughput counters so the newest minute of the dump becomes
   * the minute holding this time (ms); the others keep their distance to it.
   * Every other key is written unchanged.
   */
  metricsAt?: number;
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
 * order, sorted sets with ZADD, streams with XADD and their ids, strings with
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
 * Writes the fixture into Redis exactly (see {@link writeKeyspace}), its
 * throughput counters optionally moved in time. Returns the names written.
 */
export async function loadFixture(
  target: string | CommandSender,
  options: LoadFixtureOptions = {},
): Promise<string[]> {
  const fixture = readFixture();
  let shift = 0;
  if (options.metricsAt !== undefined) {
    const minutes = Object.keys(fixture.keys)
      .map((name) => METRIC.exec(name))
      .filter((m) => m !== null)
      .map((m) => Number(m[2]));
    const newest = Math.max(...minutes);
    shift = Math.floor(options.metricsAt / 60_000) * 60_000 - newest;
  }
  const keys: Fixture["keys"] = {};
  for (const [original, key] of Object.entries(fixture.keys)) {
    const metric = METRIC.exec(original);
    keys[metric && shift !== 0 ? `${metric[1]}${Number(metric[2]) + shift}` : original] = key;
  }
  await writeKeyspace(target, { ...fixture, keys });
  return Object.keys(keys);
}
