/**
 * The package's main entry stays small: what a host needs to make, serve
 * and configure a board. The two ports (TaskSource, BoardStore), their values,
 * the stores' factories and the error subclasses an adapter throws are in
 * `./source`, for adapter authors.
 */

import assert from "node:assert/strict";
import { docSymbols } from "../helpers/deno_doc.ts";

/** The names `deno doc` lists for an entry point. */
async function exportedNames(entry: string): Promise<string[]> {
  return [...new Set((await docSymbols(entry)).map((symbol) => symbol.name))].sort();
}

Deno.test("mod.ts exports at most 30 symbols, and the ports live in ./source", async () => {
  const main = await exportedNames("mod.ts");
  assert.ok(main.length <= 30, `mod.ts exports ${main.length}: ${main.join(", ")}`);
  assert.ok(main.includes("createBoard"));
  assert.ok(!main.includes("TaskSource"), "the port is for adapter authors: ./source");
  const source = await exportedNames("source.ts");
  for (
    const name of [
      "TaskSource",
      "StoreUnavailableError",
      "AlertRule",
      "JOB_STATES",
      "BoardStore",
      "createRedisBoardStore",
      "createMemoryBoardStore",
    ]
  ) {
    assert.ok(source.includes(name), `./source exports ${name}`);
  }
});
