import assert from "node:assert/strict";
import type { Board } from "../../mod.ts";
import { servePathOf } from "../helpers/serve_board.ts";
import { type BoardPage, browserTest, freshRedis, withBoard, withSharedBoard } from "./harness.ts";
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

browserTest(
  "withSharedBoard() builds one board for a file's tests of one key, and again once emptied",
  async () => {
    const seen: { board: Board; root: string }[] = [];
    let prepared = 0;
    const prepare = () => Promise.resolve(void prepared++);
    const look = ({ board, root }: BoardPage) => Promise.resolve(void seen.push({ board, root }));

    await withSharedBoard("fleet", {}, prepare, look);
    await withSharedBoard("fleet", {}, prepare, look);
    assert.equal(seen[1].board, seen[0].board, "the second test looks at the first one's board");
    assert.equal(prepared, 1);

    await withSharedBoard("another", {}, prepare, look);
    assert.notEqual(seen[2].board, seen[0].board, "another key, another board");
    await assert.rejects(fetch(seen[0].root), "the first board's server has stopped");

    await freshRedis(); // a test that empties the server takes the shared board's state away
    await withSharedBoard("another", {}, prepare, look);
    assert.notEqual(seen[3].board, seen[2].board);
    assert.equal(prepared, 3);
    await assert.rejects(fetch(seen[2].root));
  },
);

browserTest(
  "a route handler still running when its test ends rejects nothing outside it",
  async () => {
    const rejected: unknown[] = [];
    const keep = (event: PromiseRejectionEvent) => {
      rejected.push(event.reason);
      event.preventDefault();
    };
    addEventListener("unhandledrejection", keep);
    try {
      let release!: () => void;
      const released = new Promise<void>((resolve) => release = resolve);
      let handled: Promise<void> | undefined;
      await withBoard({}, async ({ page, root }) => {
        let entered!: () => void;
        const inHandler = new Promise<void>((resolve) => entered = resolve);
        // As retrying_as_of_test's handlers do: fetch the answer, then edit it.
        await page.route("**/api/config", (route) => {
          entered();
          handled = released.then(() => route.fetch()).then((response) =>
            route.fulfill({ response })
          );
          return handled;
        });
        page.goto(root).catch(() => {}); // its answer is held until the context is gone
        await inHandler;
      });
      release(); // the handler fetches once its context has closed
      await handled?.catch(() => {});
      await new Promise((resolve) => setTimeout(resolve, 0)); // an unhandled rejection's turn
      assert.deepEqual(rejected, []);
    } finally {
      removeEventListener("unhandledrejection", keep);
    }
  },
);
