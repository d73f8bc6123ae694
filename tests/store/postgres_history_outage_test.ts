/**
 * PostgreSQL going away: the history answers StoreUnavailableError (the
 * board's 503) instead of hanging or a raw client error, and the store
 * connects again by itself once the server is back, with what it held.
 */

import assert from "node:assert/strict";
import { StoreUnavailableError } from "../../src/errors.ts";
import { createPostgresHistoryStore } from "../../src/store/postgres/history.ts";
import { entry } from "../contract/history_store_contract.ts";
import { startPostgres } from "../helpers/postgres_server.ts";
import { waitFor } from "../helpers/wait_for.ts";

Deno.test("postgres history: a stopped server is a 503, and the store recovers by itself", async () => {
  const server = await startPostgres();
  const store = createPostgresHistoryStore({ url: server.url, connectTimeoutMs: 1000 });
  try {
    await store.write({ entries: [entry("before")], cursors: { "send-email": "1-0" } });
    await server.stop({ keepData: true });
    await assert.rejects(() => store.write({ entries: [entry("during")] }), StoreUnavailableError);
    await assert.rejects(() => store.summary("send-email", "before"), StoreUnavailableError);
    await server.start();
    await waitFor(
      () => store.holding().then(() => true, () => false),
      { what: "the history to reach PostgreSQL again" },
    );
    await store.write({ entries: [entry("after")], cursors: { "send-email": "2-0" } });
    assert.ok(await store.summary("send-email", "before"));
    assert.ok(await store.summary("send-email", "after"));
    assert.equal(await store.summary("send-email", "during"), null);
    assert.deepEqual(await store.cursors(), { "send-email": "2-0" });
  } finally {
    await store.close();
    await server.stop();
  }
});
