/**
 * Dispatching from the board (`POST /tasks/{task}/dispatch`) with a real
 * taskora App and a real worker: the job is dispatched by the App, checked
 * first against the task's input schema (a zod schema: a Standard Schema),
 * run by the worker, recorded in the audit trail, and made once per
 * `Idempotency-Key`. A board with only the Redis URL refuses, naming
 * `createBoard(app)`.
 */

import assert from "node:assert/strict";
import { z } from "zod";
import { withClient } from "../helpers/redis_server.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { waitForState, withApp } from "./harness.ts";

// deno-lint-ignore no-explicit-any
const greet = (app: any) =>
  app.task("greet", {
    input: z.object({ name: z.string().min(1) }),
    handler: (data: { name: string }) => `hello ${data.name}`,
  });

Deno.test("a dispatch from the board is run by the worker, once per Idempotency-Key, and audited", async () => {
  await withApp("redis", greet, async (world) => {
    const headers = { "idempotency-key": "click-1" };
    const first = await world.send("/tasks/greet/dispatch", { data: { name: "ada" } }, { headers });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(first.body.created, true);
    const job = await waitForState(world, first.body.jobId, "completed");
    assert.equal(job.result, "hello ada");

    const again = await world.send("/tasks/greet/dispatch", { data: { name: "ada" } }, { headers });
    assert.deepEqual(again.body, {
      ok: true,
      task: "greet",
      jobId: first.body.jobId,
      created: false,
      collect: false,
    });

    const audit = await world.get("/audit?action=job.dispatch");
    assert.equal(audit.status, 200);
    assert.ok(audit.body.entries.some((e: { target: string }) => e.target === "greet"));
  });
});

for (const kind of ["redis", "memory"] as const) {
  Deno.test(`an Idempotency-Key sent again with another body is refused with 422, not answered with the first job (${kind})`, async () => {
    await withApp(kind, greet, async (world) => {
      const headers = { "idempotency-key": "click-2" };
      const first = await world.send("/tasks/greet/dispatch", { data: { name: "ada" } }, {
        headers,
      });
      assert.equal(first.status, 200, JSON.stringify(first.body));

      const other = await world.send("/tasks/greet/dispatch", { data: { name: "bob" } }, {
        headers,
      });
      assert.equal(other.status, 422, JSON.stringify(other.body));
      assert.equal(other.body.code, "IDEMPOTENCY_KEY_REUSED");
      assert.equal(other.body.param, "idempotency-key");

      const delayed = await world.send("/tasks/greet/dispatch", {
        data: { name: "ada" },
        delay: 1000,
      }, { headers });
      assert.equal(delayed.status, 422, "the options are part of the request too");

      const same = await world.send("/tasks/greet/dispatch", { data: { name: "ada" } }, {
        headers,
      });
      assert.equal(same.status, 200);
      assert.equal(same.body.jobId, first.body.jobId);
      assert.equal(same.body.created, false);
    });
  });
}

Deno.test("a dispatch's data is checked against the task's input schema first; its options reach the job", async () => {
  await withApp("redis", greet, async (world) => {
    const bad = await world.send("/tasks/greet/dispatch", { data: { name: 3 } });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.code, "INVALID_PARAM");
    assert.equal(bad.body.param, "data");
    assert.match(bad.body.error, /input schema: data\.name: /);

    const later = await world.send("/tasks/greet/dispatch", {
      data: { name: "bo" },
      delay: 3_600_000,
      priority: 5,
      concurrencyKey: "tenant-a",
    });
    assert.equal(later.status, 200, JSON.stringify(later.body));
    const job = await waitForState(world, later.body.jobId, "delayed");
    assert.equal(job.data.name, "bo");

    const unknown = await world.send("/tasks/greet/dispatch", { data: {}, when: "now" });
    assert.equal(unknown.status, 400);
    assert.match(unknown.body.error, /when/);
    const missing = await world.send("/tasks/no-such-task/dispatch", { data: {} });
    assert.equal(missing.status, 404);
  });
});

Deno.test("a board with only the Redis URL refuses to dispatch, naming createBoard(app)", async () => {
  await withApp("redis", greet, async (world) => {
    const { status, body } = await world.send("/tasks/greet/dispatch", { data: { name: "x" } });
    assert.equal(status, 409);
    assert.equal(body.code, "INVALID_STATE");
    assert.match(body.error, /createBoard\(app\)/);
  }, { boardOn: "url" });
});

Deno.test("an Idempotency-Key is held as 'being sent' for a minute at most: a board that dies mid-dispatch does not block the key for a day", async () => {
  // taskora checks the input schema again inside its dispatch: the second check holds it there.
  let checks = 0;
  let release = () => {};
  const held = new Promise<void>((resolve) => release = resolve);
  const input = {
    "~standard": {
      version: 1,
      vendor: "test",
      validate: async (value: unknown) => {
        if (++checks === 2) await held;
        return { value };
      },
    },
  };
  // deno-lint-ignore no-explicit-any
  const slow = (app: any) => app.task("slow", { input, handler: () => "ok" });
  await withApp("redis", slow, async (world) => {
    const sent = world.send("/tasks/slow/dispatch", { data: {} }, {
      headers: { "idempotency-key": "click-9" },
    });
    const ttlWhileSending = await waitFor(() =>
      withClient(world.url, async (redis) => {
        const [key] = (await redis.scan("0", { MATCH: "*:board:trigger:*", COUNT: 1000 })).keys;
        return key === undefined ? undefined : await redis.pTTL(key);
      }), { what: "the key claimed" });
    assert.ok(
      ttlWhileSending > 0 && ttlWhileSending <= 60_000,
      `claimed for ${ttlWhileSending} ms`,
    );
    release();
    assert.equal((await sent).status, 200);
    const ttlAfter = await withClient(world.url, async (redis) => {
      const [key] = (await redis.scan("0", { MATCH: "*:board:trigger:*", COUNT: 1000 })).keys;
      return await redis.pTTL(key);
    });
    assert.ok(ttlAfter > 23 * 3_600_000, `the job's id kept for a day: ${ttlAfter} ms`);
  });
});

Deno.test("a dispatch's delay takes a duration like the rest of the board; a sub-second one is not '0 s'", async () => {
  await withApp("redis", greet, async (world) => {
    const before = Date.now();
    const later = await world.send("/tasks/greet/dispatch", { data: { name: "cy" }, delay: "5m" });
    assert.equal(later.status, 200, JSON.stringify(later.body));
    const job = await waitForState(world, later.body.jobId, "delayed");
    const runAt = (await world.get(`/jobs/${later.body.jobId}/diagnosis`)).body.reasons
      .find((r: { code: string }) => r.code === "dispatchDelay").evidence.runAt;
    assert.ok(runAt >= before + 300_000 && runAt <= Date.now() + 300_000, `runs at ${runAt}`);
    assert.equal(job.data.name, "cy");

    const soon = await world.send("/tasks/greet/dispatch", { data: { name: "di" }, delay: 500 });
    assert.equal(soon.status, 200, JSON.stringify(soon.body));
    const { body } = await world.get(`/jobs/${soon.body.jobId}/diagnosis`);
    const reason = body.reasons.find((r: { code: string }) => r.code === "dispatchDelay");
    assert.match(reason.summary, /with a delay of 500 ms/);

    const bad = await world.send("/tasks/greet/dispatch", { data: { name: "ed" }, delay: "soon" });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.param, "delay");
    assert.match(bad.body.error, /"5m"/);
  }, { start: false });
});

Deno.test("a priority beyond what taskora's score keeps in order is refused, naming priority", async () => {
  await withApp("redis", greet, async (world) => {
    // taskora scores a prioritized job -(priority * 1e13) + ts: above 900 it is no longer exact.
    const refused = await world.send("/tasks/greet/dispatch", {
      data: { name: "fe" },
      priority: 901,
    });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.param, "priority");
    assert.match(refused.body.error, /at most 900/);

    const top = await world.send("/tasks/greet/dispatch", { data: { name: "gi" }, priority: 900 });
    const next = await world.send("/tasks/greet/dispatch", { data: { name: "ha" }, priority: 899 });
    assert.equal(top.status, 200, JSON.stringify(top.body));
    assert.equal(next.status, 200, JSON.stringify(next.body));
    // Both exact in Redis's double: the higher priority runs first, whatever the dispatch order.
    const order = await withClient(
      world.url,
      (redis) => redis.zRange("taskora:{greet}:prioritized", 0, -1),
    );
    assert.deepEqual(order, [top.body.jobId, next.body.jobId]);
  }, { start: false });
});

// deno-lint-ignore no-explicit-any
const batched = (app: any) => {
  greet(app);
  app.task("digest", {
    collect: { key: "all", delay: "1h", maxSize: 100 },
    handler: (items: unknown[]) => items.length,
  });
};

Deno.test("a dispatch to a collect task answers that the id is the buffer's, and refuses delay, priority and concurrencyKey", async () => {
  await withApp("redis", batched, async (world) => {
    for (const [option, value] of [["delay", 1000], ["priority", 3], ["concurrencyKey", "k"]]) {
      const refused = await world.send("/tasks/digest/dispatch", { data: {}, [option]: value });
      assert.equal(refused.status, 400, option as string);
      assert.equal(refused.body.param, option);
      assert.match(refused.body.error, /collect task/);
    }
    const first = await world.send("/tasks/digest/dispatch", { data: { n: 1 } });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(first.body.collect, true);
    const plain = await world.send("/tasks/greet/dispatch", { data: { name: "io" } });
    assert.equal(plain.body.collect, false);
    // The id is the buffer's flush job: the next item on the key replaces it.
    const second = await world.send("/tasks/digest/dispatch", { data: { n: 2 } });
    assert.equal((await world.get(`/jobs/${first.body.jobId}`)).status, 404);
    assert.equal((await world.get(`/jobs/${second.body.jobId}`)).body.state, "delayed");
  }, { start: false });
});

Deno.test("a task's definition says whether it declares an input schema", async () => {
  await withApp("redis", batched, async (world) => {
    assert.equal((await world.get("/tasks/greet/definition")).body.definition.inputSchema, true);
    assert.equal((await world.get("/tasks/digest/definition")).body.definition.inputSchema, false);
  }, { start: false });
});
