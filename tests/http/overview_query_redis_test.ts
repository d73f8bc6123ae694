/**
 * `GET /overview` with a query over a real Redis holding the taskora fixture
 * and a fleet of 100 tasks in taskora's wire format (`tests/helpers/fleet.ts`):
 * the filter, the sorts, the page, the health summary and the groups read
 * what the keyspace holds, as on the memory source
 * (`overview_query_test.ts`).
 */

import assert from "node:assert/strict";
import { createBoard } from "../helpers/checked_board.ts";
import { FIXTURE_TASKS, loadFixture } from "../helpers/fixture.ts";
import { FLEET_PREFIXES, fleetHealth, fleetTask, writeFleet } from "../helpers/fleet.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import type { OverviewResponse } from "../../src/contract/overview.ts";

const FLEET = 100;

Deno.test("GET /overview's query over Redis: filter, sorts, page, health summary, groups", async () => {
  const redis = await startRedis();
  await loadFixture(redis.url, { metricsAt: Date.now() });
  const client = await connectClient(redis.url);
  await writeFleet(client, FLEET);
  client.destroy();
  const board = createBoard(redis.url);
  const get = async (query: string): Promise<OverviewResponse> => {
    const response = await board.fetch(new Request(`http://x/board/api/overview${query}`));
    assert.equal(response.status, 200);
    return await response.json();
  };
  try {
    const fleet = Array.from({ length: FLEET }, (_, i) => i);
    const all = await get("");
    assert.equal(all.matched, FLEET + FIXTURE_TASKS.length);
    const critical = fleet.filter((i) => fleetHealth(i) === "critical").map(fleetTask).sort();
    assert.equal(all.healthCounts.critical, critical.length);

    const first = await get(`?sort=health&limit=${critical.length}`);
    assert.deepEqual(first.tasks.map((task) => task.name), critical);
    assert.deepEqual(first.totals, all.totals, "the totals stay global");

    const billing = fleet.map(fleetTask).filter((name) => name.startsWith("billing.")).sort();
    const page = await get("?q=BILLING&sort=name&limit=5&offset=5");
    assert.deepEqual(page.tasks.map((task) => task.name), billing.slice(5, 10));
    assert.equal(page.matched, billing.length);

    const waiting = await get("?sort=waiting&limit=1");
    assert.equal(waiting.tasks[0].stats.waiting, 3);

    const grouped = await get("?group=prefix&limit=0&health=critical");
    assert.deepEqual(
      grouped.groups!.map((group) => [group.prefix, group.tasks, group.stats.waiting]),
      FLEET_PREFIXES.flatMap((prefix) => {
        const tasks = critical.filter((name) => name.startsWith(prefix)).length;
        return tasks ? [[prefix, tasks, 3 * tasks]] : [];
      }),
    );
  } finally {
    await board.close();
    await redis.stop();
  }
});
