/**
 * PostgreSQL going away: the history answers StoreUnavailableError (the
 * board's 503) instead of hanging or a raw client error, and the store
 * connects again by itself once the server is back, with what it held.
 */

import { createPostgresHistoryStore } from "../../src/store/postgres/history.ts";
import { startPostgres } from "../helpers/postgres_server.ts";
import { assertRidesOutOutage } from "./history_outage.ts";

Deno.test("postgres history: a stopped server is a 503, and the store recovers by itself", async () => {
  const server = await startPostgres();
  const store = createPostgresHistoryStore({ url: server.url, connectTimeoutMs: 1000 });
  try {
    await assertRidesOutOutage(store, server, { serverName: "PostgreSQL" });
  } finally {
    await store.close();
    await server.stop();
  }
});
