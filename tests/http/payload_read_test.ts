/**
 * `payload.read` on every road a payload leaves the board by: a user
 * without it gets no data, result or logs, and no progress beyond the list
 * preview, from the event stream, a workflow's nodes, the schedules, a bulk
 * filter's count or a job's page. The same requests by an operator get
 * them.
 */

import assert from "node:assert/strict";
import { createBoard } from "../helpers/checked_board.ts";
import { readFixture } from "../helpers/fixture.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import { LIST_PROGRESS_LIMIT } from "../../src/contract/jobs.ts";
import type { BoardOptions } from "../../src/options.ts";
import { dataOf, isEvent, openStream } from "../events/sse_client.ts";

const SAME_ORIGIN = { origin: "http://board.test", "sec-fetch-site": "same-origin" };
const WORKFLOW = "05031e79-13f6-4dca-94e8-957133427217";

/** A board whose hook names the user from the `x-user` header: `name:role`. */
function boardWith(options: BoardOptions = {}, seed = true) {
  const source = createMemorySource(seed ? { seed: readFixture() } : {});
  const board = createBoard(source, {
    auth: (request) => {
      const [name, role] = (request.headers.get("x-user") ?? "").split(":");
      return name ? { name, role } : undefined;
    },
    ...options,
  });
  const url = (path: string) => `http://board.test/board/api${path}`;
  const call = (method: string, path: string, user: string, body?: unknown) =>
    Promise.resolve(board.fetch(
      new Request(url(path), {
        method,
        headers: { ...SAME_ORIGIN, "content-type": "application/json", "x-user": user },
        body: method === "GET" ? undefined : JSON.stringify(body ?? {}),
      }),
    ));
  const stream = (user: string) =>
    openStream((request) => board.fetch(request), url("/events"), { headers: { "x-user": user } });
  return { call, stream, source, close: () => source.close() };
}

/** A progress over the list preview. */
const BIG_PROGRESS = { step: 3, note: "x".repeat(LIST_PROGRESS_LIMIT) };

Deno.test("event frames: no result or other field beyond the previews without payload.read", async () => {
  const { stream, source, close } = boardWith({}, false);
  const viewer = await stream("vic:viewer");
  const operator = await stream("oz:operator");
  try {
    source.store.enqueue("mail", { id: "m1", data: { to: "ada@example.com" } });
    source.store.claim("mail");
    source.store.setProgress("mail", "m1", 40);
    source.store.setProgress("mail", "m1", BIG_PROGRESS);
    source.store.emit("mail", "collect", "m1", { key: "ada@example.com", count: "2" });
    source.store.emit("mail", "completed", "m1", { result: '{"sent":true}', duration: "7" });
    for (const [client, payloads] of [[operator, true], [viewer, false]] as const) {
      const completed = dataOf(await client.waitFor(isEvent("job:completed")));
      assert.equal(completed.duration, 7, "timings stay");
      assert.deepEqual(completed.result, payloads ? { sent: true } : undefined);
      const collect = dataOf(await client.waitFor(isEvent("job:collect")));
      assert.equal(collect.count, 2);
      assert.equal(collect.key, payloads ? "ada@example.com" : undefined);
      const [small, big] = client.frames.filter(isEvent("job:progress")).map((f) => dataOf(f));
      assert.equal(small.value, 40, "a progress within the preview is shown");
      assert.deepEqual(big.value, payloads ? BIG_PROGRESS : null);
    }
  } finally {
    await viewer.close();
    await operator.close();
    await close();
  }
});

Deno.test("a workflow's nodes: no node data, node result or workflow result without payload.read", async () => {
  const { call, close } = boardWith();
  try {
    const operator = await (await call("GET", `/workflows/${WORKFLOW}`, "oz:operator")).json();
    assert.deepEqual(operator.graph.nodes[0].data, { id: "42" }, "the fixture's node has data");
    assert.deepEqual(operator.result, { delivered: 9 });
    const viewer = await (await call("GET", `/workflows/${WORKFLOW}`, "vic:viewer")).json();
    assert.equal(viewer.state, operator.state);
    assert.deepEqual(
      viewer.nodes.map((node: { state: string }) => node.state),
      operator.nodes.map((node: { state: string }) => node.state),
      "the nodes' states stay",
    );
    assert.ok(viewer.graph.nodes.every((node: object) => !("data" in node)));
    assert.ok(viewer.nodes.every((node: { result: unknown }) => node.result === null));
    assert.equal(viewer.result, null);
  } finally {
    await close();
  }
});

Deno.test("schedules: no data without payload.read, in the list and in an action's answer", async () => {
  const { call, close } = boardWith({
    can: (user, action) => action !== "payload.read" || user?.name === "oz",
  });
  try {
    const nightly = async (user: string) =>
      (await (await call("GET", "/schedules", user)).json()).find((
        schedule: { name: string },
      ) => schedule.name === "nightly-report");
    assert.deepEqual((await nightly("oz:")).config.data, { scope: "all" });
    const listed = await nightly("vic:");
    assert.equal(listed.config.cron, "0 3 * * *", "how it runs stays");
    assert.ok(!("data" in listed.config));
    const paused = await (await call("POST", "/schedules/nightly-report/pause", "vic:")).json();
    assert.equal(paused.schedule.paused, true);
    assert.ok(!("data" in paused.schedule.config));
  } finally {
    await close();
  }
});

Deno.test("a bulk filter by data, result or logs needs payload.read: its count is an oracle", async () => {
  const { call, close } = boardWith({
    can: (user, action) => action !== "payload.read" || user?.name === "oz",
  });
  const dryRun = (field: string, user: string) =>
    call("POST", "/bulk", user, {
      action: "retry",
      dryRun: true,
      selector: { task: "send-email", state: "failed", filter: { field, contains: "a" } },
    });
  try {
    const refused = await dryRun("data", "vic:");
    assert.equal(refused.status, 403);
    assert.deepEqual((await refused.json()).param, "payload.read");
    const byError = await dryRun("error", "vic:");
    assert.equal(byError.status, 200);
    await byError.body?.cancel();
    const allowed = await dryRun("data", "oz:");
    assert.equal(allowed.status, 200);
    await allowed.body?.cancel();
  } finally {
    await close();
  }
});

Deno.test("a job's page: progress up to the list preview without payload.read, no size beyond", async () => {
  const { call, source, close } = boardWith({}, false);
  try {
    source.store.enqueue("mail", { id: "small", data: {} });
    source.store.enqueue("mail", { id: "big", data: {} });
    source.store.claim("mail");
    source.store.claim("mail");
    source.store.setProgress("mail", "small", { step: 1 });
    source.store.setProgress("mail", "big", BIG_PROGRESS);
    const page = async (id: string, user: string) =>
      await (await call("GET", `/jobs/${id}`, user)).json();
    assert.deepEqual((await page("big", "oz:operator")).progress, BIG_PROGRESS);
    const big = await page("big", "vic:viewer");
    assert.equal(big.progress, null);
    assert.ok(!("progress" in big.payloads), "no size of what is withheld");
    const small = await page("small", "vic:viewer");
    assert.deepEqual(small.progress, { step: 1 });
    assert.deepEqual(
      small.payloads.progress,
      (await page("small", "oz:operator")).payloads.progress,
    );
  } finally {
    await close();
  }
});

Deno.test("an operation filtered by data is not shown to a user without payload.read: its counts tell what the data holds", async () => {
  const { call, stream, close } = boardWith({
    can: (user, action) => action !== "payload.read" || user?.name === "oz",
  });
  const viewer = await stream("vic:");
  const operator = await stream("oz:");
  const start = async (field: string) => {
    const response = await call("POST", "/bulk", "oz:", {
      action: "retry",
      selector: { task: "send-email", state: "failed", filter: { field, contains: "a" } },
    });
    assert.equal(response.status, 202, await response.clone().text());
    return (await response.json()).operation.id as string;
  };
  try {
    const byData = await start("data");
    const ended = (id: string) =>
      isEvent("bulk:progress", (d) => d.id === id && d.status !== "running");
    await operator.waitFor(ended(byData));
    const byError = await start("error");
    await operator.waitFor(ended(byError));
    // The viewer's stream carries the error-filtered operation's end, and nothing of the other.
    await viewer.waitFor(ended(byError));
    const seen = viewer.frames.filter(isEvent("bulk:progress")).map((f) => dataOf(f).id);
    assert.ok(!seen.includes(byData), "no frame of the data-filtered operation");

    const listed = async (user: string) =>
      (await (await call("GET", "/operations", user)).json() as { id: string }[]).map((o) => o.id);
    assert.deepEqual(new Set(await listed("oz:")), new Set([byData, byError]));
    assert.deepEqual(await listed("vic:"), [byError]);
    const one = await call("GET", `/operations/${byData}`, "vic:");
    assert.equal(one.status, 403);
    assert.equal((await one.json()).param, "payload.read");
    assert.equal((await call("GET", `/operations/${byData}`, "oz:")).status, 200);
  } finally {
    await viewer.close();
    await operator.close();
    await close();
  }
});
