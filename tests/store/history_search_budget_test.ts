/**
 * A history search on a store outside the process (Redis, PostgreSQL)
 * looks at a bounded number of jobs per call, whatever its filters: a
 * search for text only the oldest job holds answers an empty page with a
 * `next` rather than walking every summary, and paging on finds the job.
 */

import assert from "node:assert/strict";
import { type HistoryStore, SEARCH_BUDGET } from "../../src/history/store.ts";
import { RedisConnection } from "../../src/source/redis/client.ts";
import { createPostgresHistoryStore } from "../../src/store/postgres/history.ts";
import { createRedisHistoryStore } from "../../src/store/redis/history/store.ts";
import { entry, T0 } from "../contract/history_store_contract.ts";
import { startPostgres } from "../helpers/postgres_server.ts";
import { startRedis } from "../helpers/redis_server.ts";

/** Fills `store` with more jobs than a call looks at, the oldest alone failing with "needle". */
async function searchPastTheBudget(store: HistoryStore): Promise<void> {
  await store.write({
    entries: [
      entry("needle", { outcome: "failed", endedAt: T0 - 1000, error: "a needle in the hay" }),
      ...Array.from(
        { length: SEARCH_BUDGET + 10 },
        (_, i) => entry(`hay-${i}`, { endedAt: T0 + i }),
      ),
    ],
  });
  const first = await store.search({ errorText: "needle" });
  assert.deepEqual(first.summaries, [], "the first call looks at the newest jobs only");
  assert.notEqual(first.next, null, "and says where to go on");
  const second = await store.search({ errorText: "needle", cursor: first.next! });
  assert.deepEqual(second.summaries.map((summary) => summary.id), ["needle"]);
  assert.equal(second.next, null);
}

Deno.test("postgres history: a search looks at a bounded number of jobs per call", async () => {
  const server = await startPostgres();
  const store = createPostgresHistoryStore({ url: server.url });
  try {
    await searchPastTheBudget(store);
  } finally {
    await store.close();
    await server.stop();
  }
});

Deno.test("redis history: a search looks at a bounded number of jobs per call", async () => {
  const redis = await startRedis();
  const connection = new RedisConnection({ url: redis.url });
  try {
    await connection.ready();
    await searchPastTheBudget(createRedisHistoryStore({ connection }));
  } finally {
    await connection.close();
    await redis.stop();
  }
});
