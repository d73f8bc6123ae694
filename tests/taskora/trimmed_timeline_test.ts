/**
 * Timelines on a trimmed stream: taskora writes each task's event stream
 * with `XADD … MAXLEN ~ 10000`, so a busy task's older jobs lose their
 * early events. A real job is run, then its task's stream grows past the
 * cap the way taskora grows it; the job's page says its events before the
 * oldest one kept were trimmed, and a job dispatched after says nothing.
 */

// deno-lint-ignore-file no-explicit-any
import assert from "node:assert/strict";
import { growPastStreamCap } from "../helpers/stream_cap.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import { waitForState, withApp } from "./harness.ts";

Deno.test("a job whose early events the stream cap trimmed says so, with the oldest event kept", async () => {
  await withApp("redis", (app) => app.task("busy", { handler: (d: any) => d.n }), async (world) => {
    const busy = [...world.app.getRegisteredTasks()].find((t: any) => t.name === "busy");
    const old = await busy.dispatch({ n: 1 });
    await waitForState(world, old, "completed");
    assert.equal(
      (await world.get(`/jobs/${old}`)).body.eventsTrimmedBefore,
      null,
      "not trimmed yet",
    );

    const oldestKept = await growPastStreamCap(world.url, "busy");

    const { status, body } = await world.get(`/jobs/${old}`);
    assert.equal(status, 200);
    assert.equal(body.eventsTrimmedBefore, oldestKept);
    assert.ok(body.eventsTrimmedBefore >= body.timestamps.created);

    const fresh = await busy.dispatch({ n: 2 });
    await waitForState(world, fresh, "completed");
    assert.equal((await world.get(`/jobs/${fresh}`)).body.eventsTrimmedBefore, null);
  });
});

Deno.test("the memory source says the same of a job its capped stream trimmed", async () => {
  let now = 1_000_000;
  const source = createMemorySource({ now: () => now });
  try {
    source.store.enqueue("busy", { id: "old", data: {} });
    for (let i = 0; i < 11_001; i++) {
      now += 1;
      source.store.emit("busy", "progress", `other-${i}`, { value: String(i) });
    }
    const oldestKept = source.store.task("busy").stream[0].at;
    assert.equal((await source.getJob("old"))!.eventsTrimmedBefore, oldestKept);
    source.store.enqueue("busy", { id: "fresh", data: {} });
    assert.equal((await source.getJob("fresh"))!.eventsTrimmedBefore, null);
  } finally {
    await source.close();
  }
});
