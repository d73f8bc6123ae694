import assert from "node:assert/strict";
import { servePathOf } from "../helpers/serve_board.ts";
// Two files batched into this one, as scripts/test.ts batches the group's files: each
// declares a browser test that checks its board is served on its own name's path.
import "../fixtures/batch/batched_a.ts";
import "../fixtures/batch/batched_b.ts";

Deno.test({
  name: "the two batched files' names give different server paths",
  ignore: Deno.env.get("BOARD_SERVE_PATH") !== undefined, // one path forced for every file
}, () => {
  const [a, b] = ["batched_a.ts", "batched_b.ts"].map((name) =>
    servePathOf(new URL(`../fixtures/batch/${name}`, import.meta.url).href)
  );
  assert.notEqual(a, b, "one of them would pass on the batch's path by chance");
});
