/**
 * The runs the board dispatches itself, at its routes: a trigger's answer
 * tells what was dispatched even when the board cannot note the run (the
 * job exists, and an error answer would have the operator dispatch a second
 * one); a schedule deleted through the board takes its runs with it.
 */

import assert from "node:assert/strict";
import { createBoard } from "../helpers/checked_board.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import { readFixture } from "../helpers/fixture.ts";

Deno.test("a trigger whose run the store fails to note still answers the job it dispatched", async () => {
  const source = createMemorySource({ seed: readFixture(), simulate: false });
  source.boardStore.recordBoardRun = () => Promise.reject(new Error("store went away"));
  const board = createBoard(source);
  try {
    const response = await board.fetch(
      new Request("http://board.test/board/api/schedules/heartbeat/trigger", {
        method: "POST",
        headers: { origin: "http://board.test", "content-type": "application/json" },
        body: "{}",
      }),
    );
    const body = await response.json();
    assert.equal(response.status, 200, JSON.stringify(body));
    assert.equal(body.created, true);
    assert.equal((await source.getJob(body.jobId))?.state, "waiting");
  } finally {
    await board.close();
    await source.close();
  }
});

Deno.test("a schedule deleted through the board leaves none of its runs in the board's store", async () => {
  const source = createMemorySource({ seed: readFixture(), simulate: false });
  const board = createBoard(source);
  const send = (method: string, path: string) =>
    board.fetch(
      new Request(`http://board.test/board/api/schedules/heartbeat${path}`, {
        method,
        headers: { origin: "http://board.test", "content-type": "application/json" },
        body: method === "POST" ? "{}" : undefined,
      }),
    );
  const kept = async () =>
    (await source.boardStore.listBoardRuns(["heartbeat"], 10)).get("heartbeat")!;
  try {
    const triggered = await send("POST", "/trigger");
    assert.equal(triggered.status, 200, await triggered.text());
    assert.equal((await kept()).length, 1);
    const removed = await send("DELETE", "");
    assert.equal(removed.status, 200, await removed.text());
    assert.deepEqual(await kept(), []);
  } finally {
    await board.close();
    await source.close();
  }
});
