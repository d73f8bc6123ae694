/**
 * Boards in one process share nothing on the event path: each client gets
 * exactly its own board's events, however their frames interleave.
 */

import assert from "node:assert/strict";
import { createBoard } from "../../mod.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import { dataOf, isEvent, openStream } from "./sse_client.ts";

const EVENTS = 50;

Deno.test("two boards in one process, 50 events each at once: each client gets exactly its own", async () => {
  const boards = ["a", "b"].map((name) => {
    const source = createMemorySource();
    return { name, source, board: createBoard(source) };
  });
  const streams = await Promise.all(
    boards.map(({ board }) => openStream(board.fetch, "http://board.test/board/api/events")),
  );
  try {
    // Both hubs running (first stats frame out) before the events start.
    await Promise.all(streams.map((stream) => stream.waitFor(isEvent("stats:update"))));
    for (let i = 0; i < EVENTS; i++) {
      for (const { name, source } of boards) source.store.emit(name, "active", `${name}-${i}`);
    }
    for (const [index, { name }] of boards.entries()) {
      const stream = streams[index];
      await stream.waitFor(isEvent("job:active", (d) => d.id === `${name}-${EVENTS - 1}`))
        .catch(() => {}); // the assertion below says what arrived instead
      const ids = stream.frames.filter((frame) => frame.event === "job:active")
        .map((frame) => `${dataOf(frame).task}/${dataOf(frame).id}`);
      assert.deepEqual(
        ids,
        Array.from({ length: EVENTS }, (_, i) => `${name}/${name}-${i}`),
        `board ${name}'s client`,
      );
    }
  } finally {
    await Promise.all(streams.map((stream) => stream.close()));
    for (const { board, source } of boards) {
      await board.close();
      await source.close();
    }
  }
});
