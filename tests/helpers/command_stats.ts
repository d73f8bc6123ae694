/**
 * Counting what Redis runs: `INFO commandstats` deltas, which count the
 * commands Lua scripts run too (an EVALSHA's HGETs show as `hget`).
 *
 * @module
 */

import type { connectClient } from "./redis_server.ts";

type Client = Awaited<ReturnType<typeof connectClient>>;

/**
 * Commands Redis ran so far, per command, all kinds but INFO (the counting
 * itself) unless `withInfo`.
 */
export async function commandsRun(client: Client, withInfo = false): Promise<Map<string, number>> {
  const info = String(await client.sendCommand(["INFO", "commandstats"]));
  const calls = new Map<string, number>();
  for (const [, name, n] of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) {
    if (withInfo || name !== "info") calls.set(name, Number(n));
  }
  return calls;
}

/**
 * The commands Redis ran while `work` ran, per command (those it ran at
 * least once). With `withInfo`, the INFOs others sent are counted too (a
 * board's overview asks one), less the one this counting sent.
 */
export async function commandsOf(
  client: Client,
  work: () => Promise<unknown>,
  { withInfo = false } = {},
): Promise<Map<string, number>> {
  const before = await commandsRun(client, withInfo);
  await work();
  const delta = new Map<string, number>();
  for (const [name, n] of await commandsRun(client, withInfo)) {
    // The INFO that read `before` is counted by now: it is the counting's, not the work's.
    const d = n - (before.get(name) ?? 0) - (name === "info" ? 1 : 0);
    if (d > 0) delta.set(name, d);
  }
  return delta;
}

/**
 * The bytes Redis has received from its clients so far (`INFO stats`
 * `total_net_input_bytes`): what commands cost on the wire, their key names
 * included.
 */
export async function bytesReceived(client: Client): Promise<number> {
  const info = String(await client.sendCommand(["INFO", "stats"]));
  return Number(info.match(/^total_net_input_bytes:(\d+)/m)![1]);
}

/** The sum of `calls`, of the named commands only when `names` is given. */
export function totalCalls(calls: Map<string, number>, names?: readonly string[]): number {
  let sum = 0;
  for (const [name, n] of calls) if (!names || names.includes(name)) sum += n;
  return sum;
}

/**
 * The commands the overview's scripts run inside Redis: the queue snapshot's
 * (`src/source/redis/queue_snapshot.ts`: counts, the queues' ends and their
 * hashes, the active jobs' locks) and the minutes' (`failed_minutes.ts`);
 * of an overview's commands, the others went over the wire.
 */
export const SNAPSHOT_INNER_COMMANDS: readonly string[] = [
  "llen",
  "zcard",
  "lindex",
  "lrange",
  "hget",
  "hmget",
  "zrange",
  "exists",
  "mget",
  "zcount",
  "zrangebyscore",
];
