/**
 * `GET /api/overview` under concurrent requests: those that arrive while one
 * is being read share its answer, so N browsers (or N tabs) polling at once
 * cost one read of every task, not N, and the board holds one answer. (Read
 * directly, on a follower whose leader keeps no live state: a leader's
 * overviews are one pass's.)
 */

import assert from "node:assert/strict";
import { createBoard } from "../helpers/checked_board.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import { readFixture } from "../helpers/fixture.ts";

Deno.test("overviews asked at once share one read of the store, and each gets the whole answer", async () => {
  const source = createMemorySource({ seed: readFixture() });
  // Another board leads and keeps no live state: this one reads every task itself.
  await source.boardStore.holdLease("board", "the-leader", 3_600_000);
  const board = createBoard(source);
  let reads = 0;
  const getQueueSnapshots = source.getQueueSnapshots.bind(source);
  source.getQueueSnapshots = (tasks) => {
    reads++;
    return getQueueSnapshots(tasks);
  };
  const overview = async () => {
    const response = await board.fetch(new Request("http://board.test/board/api/overview"));
    assert.equal(response.status, 200);
    return await response.json();
  };
  try {
    const answers = await Promise.all([overview(), overview(), overview(), overview()]);
    assert.equal(reads, 1);
    for (const answer of answers) assert.deepEqual(answer, answers[0]);
    assert.ok(answers[0].tasks.some((task: { name: string }) => task.name === "send-email"));
    // Once answered, the next overview reads again: nothing is kept.
    await overview();
    assert.equal(reads, 2);
  } finally {
    await board.close();
    await source.close();
  }
});
