/**
 * Run again and the edited retry with a real taskora App and real workers:
 * the job the board makes (through the App, or written by the board alone)
 * is run by a worker, and the edited retry's worker sees the new data.
 */

// deno-lint-ignore-file no-explicit-any
import assert from "node:assert/strict";
import { createBoard } from "../../mod.ts";
import { waitForState, withApp } from "./harness.ts";
import { waitFor } from "../helpers/wait_for.ts";

/** A task that fails unless its data says `ok`, and notes what each run saw. */
function greeter(app: any): { seen: unknown[] } {
  const state = { seen: [] as unknown[] };
  app.task("greet", {
    version: 3,
    since: 3,
    migrate: { 2: (d: unknown) => d, 3: (d: unknown) => d },
    handler: (data: { ok: boolean; name: string }) => {
      state.seen.push(data);
      if (!data.ok) throw new Error(`not ok: ${data.name}`);
      return `hello ${data.name}`;
    },
  });
  return state;
}

function taskOf(app: any, name: string): any {
  return [...app.getRegisteredTasks()].find((t: { name: string }) => t.name === name);
}

Deno.test("with the App on Redis: a re-run and an edited retry are run by a real worker", async () => {
  let state!: { seen: unknown[] };
  await withApp("redis", (app) => state = greeter(app), async (world) => {
    const done = await taskOf(world.app, "greet").dispatch({ ok: true, name: "ada" });
    await waitForState(world, done, "completed");
    const rerun = await world.send(`/jobs/${done}/rerun`);
    assert.equal(rerun.status, 200, JSON.stringify(rerun.body));
    assert.equal(rerun.body.version, 3);
    assert.equal(rerun.body.versionFrom, "app");
    assert.equal(rerun.body.expireAtFrom, "app");
    assert.notEqual(rerun.body.jobId, done);
    const again = await waitForState(world, rerun.body.jobId, "completed");
    assert.equal(again.result, "hello ada");
    assert.equal(again.version, 3);

    const failed = await taskOf(world.app, "greet").dispatch({ ok: false, name: "bob" });
    await waitForState(world, failed, "failed");
    const edited = await world.send(`/jobs/${failed}/retry-edited`, {
      data: { ok: true, name: "bobby" },
    });
    assert.equal(edited.status, 200, JSON.stringify(edited.body));
    const fixed = await waitForState(world, failed, "completed");
    assert.equal(fixed.result, "hello bobby");
    assert.deepEqual(
      state.seen.at(-1),
      { ok: true, name: "bobby" },
      "the handler saw the new data",
    );
  });
});

Deno.test("without the App: a board on the same Redis re-runs and retries edited, and workers run them", async () => {
  let state!: { seen: unknown[] };
  await withApp("redis", (app) => state = greeter(app), async (world) => {
    const bare = createBoard(world.url);
    const send = async (path: string, body?: unknown) => {
      const response = await bare.fetch(
        new Request(`http://localhost/board/api${path}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
      );
      return { status: response.status, body: await response.json() };
    };
    try {
      const failed = await taskOf(world.app, "greet").dispatch({ ok: false, name: "cy" });
      await waitForState(world, failed, "failed");
      const rerun = await send(`/jobs/${failed}/rerun`);
      assert.equal(rerun.status, 200, JSON.stringify(rerun.body));
      assert.deepEqual(
        { version: rerun.body.version, versionFrom: rerun.body.versionFrom },
        { version: 3, versionFrom: "recent-jobs" },
        "stamped with the _v of the job run again: the task's since, so the worker runs it",
      );
      assert.equal(rerun.body.expireAtFrom, "not-set", "without the App the task's TTL is unknown");
      await waitForState(world, rerun.body.jobId, "failed");
      await waitFor(
        () => state.seen.filter((d: any) => d.name === "cy").length >= 2 ? true : undefined,
        { what: "the re-run's attempt" },
      );

      const edited = await send(`/jobs/${failed}/retry-edited`, {
        data: { ok: true, name: "cyd" },
      });
      assert.equal(edited.status, 200, JSON.stringify(edited.body));
      assert.equal((await waitForState(world, failed, "completed")).result, "hello cyd");
      assert.deepEqual(state.seen.at(-1), { ok: true, name: "cyd" });
    } finally {
      await bare.close();
    }
  });
});

Deno.test("with a memory App: Run again goes through the App; an edited retry is refused, clearly", async () => {
  await withApp("memory", greeter, async (world) => {
    const failed = await taskOf(world.app, "greet").dispatch({ ok: false, name: "dee" });
    await waitForState(world, failed, "failed");
    const edited = await world.send(`/jobs/${failed}/retry-edited`, { data: { ok: true } });
    assert.equal(edited.status, 409);
    assert.equal(edited.body.code, "INVALID_STATE");
    assert.match(edited.body.error, /data cannot be replaced/);
    assert.equal((await world.get(`/jobs/${failed}`)).body.state, "failed", "nothing changed");
    const rerun = await world.send(`/jobs/${failed}/rerun`);
    assert.equal(rerun.status, 200, JSON.stringify(rerun.body));
    assert.equal(rerun.body.versionFrom, "app");
    assert.equal(rerun.body.expireAtFrom, "app");
    const again = await waitForState(world, rerun.body.jobId, "failed");
    assert.deepEqual(again.data, { ok: false, name: "dee" });
  });
});
