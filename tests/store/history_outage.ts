/**
 * The outage every history store must ride out, whatever server it is on:
 * while the server is down, a read and a write answer StoreUnavailableError
 * (the board's 503) instead of hanging or a raw client error; once it is
 * back, the store works again by itself, with what it held and without the
 * write it refused.
 */

import assert from "node:assert/strict";
import { StoreUnavailableError } from "../../src/errors.ts";
import type { HistoryStore } from "../../src/history/store.ts";
import { entry } from "../contract/history_store_contract.ts";
import { waitFor } from "../helpers/wait_for.ts";

/** The server under a store: stopped with its data kept, then started again. */
export interface StoppableServer {
  stop(options: { keepData: true }): Promise<void>;
  start(): Promise<void>;
}

/**
 * Takes `store` through `server`'s outage, asserting each step;
 * `noticed` waits until the store's client has seen the server go, where
 * it must (a connection that would otherwise send into the void).
 */
export async function assertRidesOutOutage(
  store: HistoryStore,
  server: StoppableServer,
  { serverName, noticed }: { serverName: string; noticed?: () => Promise<unknown> },
): Promise<void> {
  await store.write({ entries: [entry("before")], cursors: { "send-email": "1-0" } });
  await server.stop({ keepData: true });
  await noticed?.();
  await assert.rejects(() => store.summary("send-email", "before"), StoreUnavailableError);
  await assert.rejects(() => store.write({ entries: [entry("during")] }), StoreUnavailableError);
  await server.start();
  await waitFor(
    () => store.holding().then(() => true, () => false),
    { what: `the history to reach ${serverName} again` },
  );
  await store.write({ entries: [entry("after")], cursors: { "send-email": "2-0" } });
  assert.ok(await store.summary("send-email", "before"));
  assert.ok(await store.summary("send-email", "after"));
  assert.equal(await store.summary("send-email", "during"), null);
  assert.deepEqual(await store.cursors(), { "send-email": "2-0" });
}
