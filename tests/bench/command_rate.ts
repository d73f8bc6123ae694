/**
 * Commands per second a board costs Redis over a window of wall time
 * (`INFO commandstats` deltas, the commands scripts run included), for the
 * benchmarks of what runs in the background: an open browser, an idle
 * board, replicas.
 *
 * @module
 */

import { commandsOf, totalCalls } from "../helpers/command_stats.ts";
import type { connectClient } from "../helpers/redis_server.ts";
import { sleep } from "./medians.ts";

type Client = Awaited<ReturnType<typeof connectClient>>;

/** What Redis ran over `ms` of wall time while `during` (if given) ran too, per command. */
export function commandsOver(
  client: Client,
  ms: number,
  during: () => Promise<unknown> = () => Promise.resolve(),
): Promise<Map<string, number>> {
  return commandsOf(client, () => Promise.all([sleep(ms), during()]));
}

/** Commands per second of `calls` over `ms`, of the named commands only when `names` is given. */
export function perSecond(calls: Map<string, number>, ms: number, names?: string[]): number {
  return totalCalls(calls, names) / (ms / 1000);
}

/**
 * One line of a window: `label: 44.0 commands/s (hget 39.3/s, set 1.2/s, …)`,
 * the `most` commands that weigh most first.
 */
export function rateLine(label: string, calls: Map<string, number>, ms: number, most = 8): string {
  const heaviest = [...calls]
    .toSorted(([, a], [, b]) => b - a)
    .slice(0, most)
    .map(([name, n]) => `${name} ${(n / (ms / 1000)).toFixed(1)}/s`);
  return `${label}: ${perSecond(calls, ms).toFixed(1)} commands/s (${heaviest.join(", ")})`;
}
