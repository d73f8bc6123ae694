/** The HistoryStore contract on PostgreSQL, on a throwaway server (one per file). */

import postgres from "postgres";
import { createPostgresHistoryStore } from "../../src/store/postgres/history.ts";
import { startPostgres } from "../helpers/postgres_server.ts";
import { historyStoreContract } from "./history_store_contract.ts";

const server = await startPostgres();
let databases = 0;

historyStoreContract("postgres history", async (limits) => {
  // A database per case: every case starts from an empty schema, on one server.
  const name = `case_${databases++}`;
  const sql = postgres(server.url, { onnotice: () => {} });
  await sql.unsafe(`CREATE DATABASE ${name}`);
  await sql.end();
  const store = createPostgresHistoryStore({
    url: server.url.replace(/\/postgres$/, `/${name}`),
    limits,
  });
  return { store, close: () => store.close() };
});

// Runs even when --filter skips every test, so no server outlives the run.
Deno.test.afterAll(async () => {
  await server.stop();
});
