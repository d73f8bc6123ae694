/**
 * `createBoard(source, { store })`: the board keeps its own state in the
 * store it is given, never in the one its source brings, concern by concern.
 */

import assert from "node:assert/strict";
import { createBoard } from "../helpers/checked_board.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import { createMemoryBoardStore } from "../../src/store/memory/mod.ts";
import { readFixture } from "../helpers/fixture.ts";
import { waitFor } from "../helpers/wait_for.ts";
import type { BoardOptions } from "../../src/options.ts";

const ORIGIN = "http://board.test";

/** A board over the fixture's memory source, keeping its state in a store of its own. */
function boardWithStore(options: BoardOptions = {}) {
  const source = createMemorySource({ seed: readFixture(), simulate: false });
  const store = createMemoryBoardStore();
  const board = createBoard(source, { store, ...options });
  const post = (path: string, body: unknown) =>
    board.fetch(
      new Request(`${ORIGIN}/board/api${path}`, {
        method: "POST",
        headers: { origin: ORIGIN, "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
    );
  return {
    source,
    store,
    post,
    async close() {
      await board.close();
      await source.close();
    },
  };
}

Deno.test("a board given a store writes its audit trail there, not in its source's", async () => {
  const { source, store, post, close } = boardWithStore();
  try {
    const response = await post("/schedules/heartbeat/trigger", {});
    assert.equal(response.status, 200, await response.text());
    const { entries } = await store.listAudit({ limit: 10 });
    assert.deepEqual(entries.map((entry) => entry.action), ["schedule.trigger"]);
    assert.deepEqual((await source.boardStore.listAudit({ limit: 10 })).entries, []);
  } finally {
    await close();
  }
});

Deno.test("a board given a store keeps its bulk operations there", async () => {
  const { source, store, post, close } = boardWithStore();
  try {
    const response = await post("/bulk", {
      action: "retry",
      selector: { task: "send-email", state: "failed" },
    });
    const { operation } = await response.json();
    assert.equal(response.status, 202, JSON.stringify(operation));
    await waitFor(async () => (await store.operations.get(operation.id)) !== null, {
      what: "the operation in the given store",
    });
    assert.deepEqual(await source.boardStore.operations.list(), []);
  } finally {
    await close();
  }
});

Deno.test("a board given a store keeps the alert rules made through the API there", async () => {
  const sinks = [{ name: "ops", type: "webhook" as const, url: "https://hooks.test/ops" }];
  const { source, store, post, close } = boardWithStore({
    alerts: { sinks: sinks.map((sink) => ({ ...sink, secret: "s".repeat(32) })) },
  });
  try {
    const rule = { name: "mail failing", kind: "failed", threshold: 5, sinks: ["ops"] };
    const response = await post("/alerts/rules", rule);
    assert.equal(response.status, 201, await response.text());
    assert.deepEqual((await store.listAlertRules()).map((kept) => kept.name), ["mail failing"]);
    assert.deepEqual(await source.boardStore.listAlertRules(), []);
  } finally {
    await close();
  }
});
