/**
 * `holding()` (`harness.ts`): a handler run that starts after the test's
 * release ends at once. The worker takes a job a moment after the board
 * reads it active, and under load a test's reads could end first: that run
 * then held the App's close until taskora's 30 s job timeout
 * (`stalled_test.ts`: 30 s of a 1 s test in a loaded group run).
 */

import assert from "node:assert/strict";
import { holding } from "./harness.ts";

type Handler = () => Promise<string>;

/** The handlers `holding()` defines, by task name, without an App. */
function handlersOf(tasks: ReturnType<typeof holding>): Map<string, Handler> {
  const handlers = new Map<string, Handler>();
  tasks.define({
    task: (name: string, options: { handler: Handler }) => handlers.set(name, options.handler),
  });
  return handlers;
}

/** What `run` has settled to once the microtasks queued before this look have run, or "pending". */
function settledNow(run: Promise<string>): Promise<string> {
  return Promise.race([run, Promise.resolve("pending")]);
}

Deno.test("holding(): a run started before the release holds until it, one started after ends at once", async () => {
  const tasks = holding();
  const handlers = handlersOf(tasks);
  const early = handlers.get("hold")!();
  assert.equal(await settledNow(early), "pending");
  tasks.release();
  assert.equal(await early, "done");
  for (const name of ["hold", "watched"]) {
    assert.equal(await settledNow(handlers.get(name)!()), "done", name);
  }
});
