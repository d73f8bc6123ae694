/** The tests' one waiting helper gives up on a look that never settles. */

import assert from "node:assert/strict";
import { waitFor } from "../helpers/wait_for.ts";

Deno.test("waitFor() gives up at its limit on a look that never settles, naming what it waited for", async () => {
  await assert.rejects(
    waitFor(() => new Promise<boolean>(() => {}), { what: "a hung server", limitMs: 20 }),
    (error: Error) => {
      assert.match(error.message, /gave up waiting for a hung server/);
      assert.match(String((error.cause as Error).message), /did not settle/);
      return true;
    },
  );
});

Deno.test("waitFor() answers what the condition returned once it holds", async () => {
  let looks = 0;
  assert.equal(await waitFor(() => ++looks >= 3 && looks, { what: "three looks", everyMs: 0 }), 3);
});
