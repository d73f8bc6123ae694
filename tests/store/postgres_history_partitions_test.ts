/**
 * PostgreSQL history partitions and two boards: a day's partitions dropped
 * by another board's trim are made again when a late entry of that day is
 * written, instead of every later batch failing on a partition this board
 * remembered making.
 */

import assert from "node:assert/strict";
import { createPostgresHistoryStore } from "../../src/store/postgres/history.ts";
import { entry, T0 } from "../contract/history_store_contract.ts";
import { startPostgres } from "../helpers/postgres_server.ts";

Deno.test("postgres history: a day another board's trim dropped is made again by the next write", async () => {
  const server = await startPostgres();
  const writer = createPostgresHistoryStore({ url: server.url });
  const trimmer = createPostgresHistoryStore({
    url: server.url,
    limits: { retentionMs: 86_400_000 },
  });
  try {
    await writer.write({ entries: [entry("first")] });
    assert.deepEqual(await trimmer.trim(T0 + 3 * 86_400_000), { removed: 1 });
    await writer.write({ entries: [entry("late", { endedAt: T0 + 5000 })] });
    assert.ok(await writer.summary("send-email", "late"));
  } finally {
    await writer.close();
    await trimmer.close();
    await server.stop();
  }
});
