/**
 * The history in PostgreSQL (`--history-postgres`), its leader killed with
 * `kill -9` after writing a batch and before the change feed saved its ids
 * in Redis: the next leader records the rest, every job once and every
 * attempt once (`history_takeover_scenario.ts`).
 */

import { createPostgresHistoryStore } from "../../src/store/postgres/history.ts";
import { startPostgres } from "../helpers/postgres_server.ts";
import { startRedis } from "../helpers/redis_server.ts";
import { killLeaderMidBatch } from "./history_takeover_scenario.ts";

Deno.test("postgres history: the leader killed mid-batch, the next records the rest, none lost or doubled", async () => {
  const [redis, postgres] = await Promise.all([startRedis(), startPostgres()]);
  const history = createPostgresHistoryStore({ url: postgres.url });
  try {
    await killLeaderMidBatch({
      redis,
      historyArgs: ["--history-postgres", postgres.url],
      history,
    });
  } finally {
    await history.close();
    await postgres.stop();
    await redis.stop();
  }
});
