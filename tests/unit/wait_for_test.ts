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

Deno.test("waitFor() keeps time on its own clock: a look that moves Date.now on an hour still counts", async () => {
  const realNow = Date.now;
  let looks = 0;
  try {
    const held = await waitFor(async () => {
      Date.now = () => realNow() + 3_600_000; // as a test's clock moved on, stubbed during the look
      await new Promise((resolve) => setTimeout(resolve, 1));
      return ++looks >= 2;
    }, { what: "two looks an hour on", everyMs: 0 });
    assert.equal(held, true);
    assert.equal(looks, 2);
  } finally {
    Date.now = realNow;
  }
});
