/**
 * `createBoard(source, { store })`: a store of one's own is checked when the
 * board is made, naming what it lacks, rather than failing at its first use.
 */

import assert from "node:assert/strict";
import { BoardOptionsError, createBoard, createMemorySource } from "../../mod.ts";
import { createMemoryBoardStore } from "../../source.ts";
import type { BoardStore } from "../../source.ts";

Deno.test("createBoard refuses a store that lacks a BoardStore member, naming it", async () => {
  const source = createMemorySource();
  try {
    const lacking = Object.assign(Object.create(createMemoryBoardStore()), {
      holdLease: undefined,
    });
    assert.throws(
      () => createBoard(source, { store: lacking as unknown as BoardStore }),
      (error) =>
        error instanceof BoardOptionsError && /"store"/.test(error.message) &&
        /missing holdLease/.test(error.message),
    );
    assert.throws(
      () => createBoard(source, { store: "redis://x" as unknown as BoardStore }),
      (error) => error instanceof BoardOptionsError && /"store"/.test(error.message),
    );
  } finally {
    await source.close();
  }
});

Deno.test("createBoard takes a BoardStore as its store", async () => {
  const source = createMemorySource();
  const board = createBoard(source, { store: createMemoryBoardStore() });
  try {
    assert.equal(
      (await board.fetch(new Request("http://board.test/board/api/overview"))).status,
      200,
    );
  } finally {
    await board.close();
    await source.close();
  }
});
