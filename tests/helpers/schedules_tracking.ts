/**
 * A Redis source listing schedules through the tracking connection's cache
 * (`src/source/redis/tracked_fields.ts`), on one Redis, a Cluster or a
 * Sentinel set alike: the schedules hash and the next-run set written by a
 * second connection as taskora writes them.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { ConnectionOptions } from "../../src/source/redis/client.ts";
import { RedisTaskSource } from "../../src/source/redis/mod.ts";
import { globalKeys } from "../../src/source/wire/keys.ts";
import { commandsOf } from "./command_stats.ts";
import { FakeTimers } from "./fake_timers.ts";
import { connectClient } from "./redis_server.ts";
import { waitFor } from "./wait_for.ts";

/** A schedule's stored JSON, as taskora 0.5.0 writes it. */
const stored = (data: unknown) => JSON.stringify({ task: "report", every: 3_600_000, data });

/**
 * On `where`, whose nodes on `ports` serve the schedules' keys: a list with
 * nothing changed sends them no command; a schedule another connection
 * changed shows once Redis's invalidation arrives; the source's own pause
 * in its very next list.
 */
export async function schedulesAsTheyChange(
  where: ConnectionOptions,
  ports: readonly number[],
): Promise<void> {
  const keys = globalKeys();
  const nodes = await Promise.all(ports.map((port) => connectClient(`redis://127.0.0.1:${port}`)));
  const nodeOf = async (key: string) => nodes[ports.indexOf(await portServing(nodes, ports, key))];
  const source = new RedisTaskSource({ ...where, commandTimeoutMs: 10_000 }, new FakeTimers());
  try {
    await (await nodeOf(keys.schedules)).hSet(keys.schedules, "hourly", stored(1));
    await (await nodeOf(keys.schedulesNext)).zAdd(keys.schedulesNext, {
      score: Date.now() + 3_600_000,
      value: "hourly",
    });
    assert.equal((await source.listSchedules())[0].config.data, 1);
    // A cluster client may connect a node again while the slot map settles, which drops the
    // cache (rightly): the wait is for a list that sends nothing, which never comes without it.
    await waitFor(async () => {
      const sent = await Promise.all(
        nodes.map((node) => commandsOf(node, () => source.listSchedules())),
      );
      return sent.every((calls) => calls.size === 0);
    }, { what: "a list with nothing changed that sends the nodes no command" });

    await (await nodeOf(keys.schedules)).hSet(keys.schedules, "hourly", stored(2));
    await waitFor(async () => (await source.listSchedules())[0].config.data === 2, {
      what: "another connection's change to show",
    });

    await source.updateSchedule("hourly", { paused: true });
    assert.equal((await source.listSchedules())[0].paused, true, "the source's own, at once");
  } finally {
    await source.close();
    for (const node of nodes) node.destroy();
  }
}

/** Which of `ports` serves `key`: the one whose node answers it without a MOVED. */
async function portServing(
  nodes: Awaited<ReturnType<typeof connectClient>>[],
  ports: readonly number[],
  key: string,
): Promise<number> {
  for (const [i, node] of nodes.entries()) {
    try {
      await node.sendCommand(["EXISTS", key]);
      return ports[i];
    } catch {
      // MOVED: another node's slot
    }
  }
  throw new Error(`no node serves ${key}`);
}
