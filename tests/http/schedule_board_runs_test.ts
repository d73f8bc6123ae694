/**
 * A trigger's answer tells what was dispatched even when the board cannot
 * note the run: the job exists, and an error answer would have the
 * operator dispatch a second one.
 */

import assert from "node:assert/strict";
import { createBoard } from "../helpers/checked_board.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import { readFixture } from "../helpers/fixture.ts";

Deno.test("a trigger whose run the store fails to note still answers the job it dispatched", async () => {
  const source = createMemorySource({ seed: readFixture(), simulate: false });
  source.recordBoardRun = () => Promise.reject(new Error("store went away"));
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
