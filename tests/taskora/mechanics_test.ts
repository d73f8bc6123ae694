/**
 * The mechanics scan with real taskora mechanisms on a throwaway Redis: a
 * concurrency key at its limit of 1 with 3 jobs on it, a throttle, a
 * debounce, a dedup and a collect buffer, each made by the App's own
 * dispatch and read back by `GET /tasks/{task}/mechanics`, step by step.
 */

import assert from "node:assert/strict";
import { addFound, EMPTY } from "../../ui/pages/task/mechanics_scan.ts";
import { createBoard } from "../../mod.ts";
import { connectClient } from "../helpers/redis_server.ts";
import { ADA_LOGIN, signInAda } from "../helpers/session_login.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { type AppWorld, withApp } from "./harness.ts";

// deno-lint-ignore no-explicit-any
type Task = any;

/** The user `x-user: <name>:<role>` names. */
const auth = (request: Request) => {
  const [name, role] = (request.headers.get("x-user") ?? "").split(":");
  return name ? { name, role } : undefined;
};

/** Every entry of a task's mechanics, following the cursor to the end of the keyspace. */
async function scanAll(world: AppWorld, task: string) {
  const entries = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor === null ? "" : `?cursor=${cursor}`;
    const { status, body } = await world.get(`/tasks/${task}/mechanics${query}`);
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.known, true);
    assert.ok(body.scanCalls >= 1 && body.scanCalls <= 10);
    for (const { id, ...entry } of body.entries) {
      assert.match(id, /^[0-9a-f]{24}$/);
      entries.push(entry);
    }
    cursor = body.cursor;
  } while (cursor !== null);
  return entries;
}

Deno.test("the mechanics scan finds each mechanism real taskora dispatches made, with what it holds", async () => {
  const releases: (() => void)[] = [];
  await withApp("redis", (app) => {
    app.task("per-key", {
      handler: () => new Promise<string>((resolve) => releases.push(() => resolve("done"))),
    });
    app.task("throttled", { handler: () => "ok" });
    app.task("debounced", { handler: () => "ok" });
    app.task("deduped", { handler: () => "ok" });
    app.task("batch", {
      collect: { key: "all", delay: "1m", maxSize: 100, maxWait: "5m" },
      handler: () => "ok",
    });
  }, async (world) => {
    try {
      const task = (name: string): Task =>
        [...world.app.getRegisteredTasks()].find((t: Task) => t.name === name);
      for (let n = 0; n < 3; n++) {
        await task("per-key").dispatch({ n }, { concurrencyKey: "tenant-a", concurrencyLimit: 1 });
      }
      await waitFor(() => releases.length === 1, { what: "one job of tenant-a running" });
      for (let n = 0; n < 3; n++) {
        await task("throttled").dispatch({ n }, { throttle: { key: "api", max: 2, window: "1m" } });
      }
      await task("debounced").dispatch({ q: "a" }, { debounce: { key: "search", delay: "1m" } });
      const last = String(
        await task("debounced").dispatch({ q: "ab" }, { debounce: { key: "search", delay: "1m" } }),
      );
      const kept = String(
        // The delay in ms: taskora 0.5.0's dedup path hands a duration string to its script as is.
        await task("deduped").dispatch({}, { deduplicate: { key: "sync" }, delay: 3_600_000 }),
      );
      for (let n = 0; n < 3; n++) await task("batch").dispatch({ n });

      assert.deepEqual(await scanAll(world, "per-key"), [
        { kind: "concurrency", key: "tenant-a", count: 1 },
      ]);
      const [throttle, ...noMore] = await scanAll(world, "throttled");
      assert.deepEqual(noMore, []);
      assert.equal(throttle.kind, "throttle");
      assert.equal(throttle.key, "api");
      assert.equal(throttle.count, 2, "the third dispatch was throttled");
      assert.ok(throttle.resetsInMs > 0 && throttle.resetsInMs <= 60_000);

      const [debounce] = await scanAll(world, "debounced");
      assert.equal(debounce.kind, "debounce");
      assert.equal(debounce.jobId, last, "the later dispatch replaced the first");
      assert.ok(debounce.runAt > Date.now() && debounce.runAt <= Date.now() + 60_000);

      assert.deepEqual(await scanAll(world, "deduped"), [
        { kind: "dedup", key: "sync", jobId: kept, state: "delayed" },
      ]);

      const [buffer] = await scanAll(world, "batch");
      assert.equal(buffer.kind, "collect");
      assert.equal(buffer.key, "all");
      assert.equal(buffer.size, 3);
      assert.ok(buffer.firstAt <= buffer.lastAt);
      assert.ok(buffer.flushJobId !== null && buffer.flushAt > Date.now());
    } finally {
      releases.splice(0).forEach((release) => release());
    }
  });
});

Deno.test("one step scans at most 10 x 1,000 keys and says where to go on; a bad cursor is refused", async () => {
  await withApp("redis", (app) => app.task("t", { handler: () => "ok" }), async (world) => {
    const [t] = [...world.app.getRegisteredTasks()] as Task[];
    await t.dispatch({}, { throttle: { key: "api", max: 5, window: "1h" } });
    const redis = await connectClient(world.url);
    try {
      // 30,000 keys of another app: a whole SCAN would take 30 calls.
      for (let chunk = 0; chunk < 30; chunk++) {
        const pairs = Array.from({ length: 1000 }, (_, i) => [`other:${chunk}:${i}`, "x"]).flat();
        await redis.sendCommand(["MSET", ...pairs]);
      }
    } finally {
      await redis.close();
    }
    const first = await world.get("/tasks/t/mechanics");
    assert.equal(first.status, 200);
    assert.equal(first.body.scanCalls, 10);
    assert.match(first.body.cursor, /^0-\d+$/);
    const found = [...first.body.entries];
    let cursor = first.body.cursor;
    let steps = 1;
    while (cursor !== null) {
      const next = await world.get(`/tasks/t/mechanics?cursor=${cursor}`);
      found.push(...next.body.entries);
      cursor = next.body.cursor;
      steps++;
    }
    assert.ok(steps >= 3, `${steps} steps`);
    assert.deepEqual(found.map((e) => [e.kind, e.key, e.count]), [["throttle", "api", 1]]);

    const bad = await world.get("/tasks/t/mechanics?cursor=*");
    assert.equal(bad.status, 400);
    assert.equal(bad.body.code, "INVALID_PARAM");
    assert.match(bad.body.error, /cursor/);
    const missing = await world.get("/tasks/no-such-task/mechanics");
    assert.equal(missing.status, 404);
    assert.equal(missing.body.code, "TASK_NOT_FOUND");
  });
});

Deno.test("the mechanism keys are shown only to users who may read the task's payloads, as the diagnosis shows them", async () => {
  await withApp("redis", (app) => app.task("sync", { handler: () => "ok" }), async (world) => {
    const [sync] = [...world.app.getRegisteredTasks()] as Task[];
    const kept = String(
      await sync.dispatch({}, { deduplicate: { key: "ada@example.com" }, delay: 3_600_000 }),
    );
    const as = async (user: string) => {
      const { status, body } = await world.send("/tasks/sync/mechanics", undefined, {
        method: "GET",
        headers: { "x-user": user },
      });
      assert.equal(status, 200, JSON.stringify(body));
      assert.equal(body.cursor, null, "one step reads this small keyspace");
      return body.entries.map(({ id: _, ...entry }: { id: string }) => entry);
    };
    assert.deepEqual(await as("oz:operator"), [
      { kind: "dedup", key: "ada@example.com", jobId: kept, state: "delayed" },
    ]);
    assert.deepEqual(await as("vic:viewer"), [
      { kind: "dedup", key: "[hidden: needs payload.read]", jobId: kept, state: "delayed" },
    ]);
  }, { board: { auth } });
});

Deno.test("a key SCAN returns twice is counted once, by an id that is the same for the same key (hidden keys too) and is not the key", async () => {
  await withApp("redis", (app) => app.task("sync", { handler: () => "ok" }), async (world) => {
    const [sync] = [...world.app.getRegisteredTasks()] as Task[];
    for (const key of ["ada@example.com", "bob@example.com", "cy@example.com"]) {
      await sync.dispatch({}, { deduplicate: { key }, delay: 3_600_000 });
    }
    const step = async (user: string, query: string) => {
      const { status, body } = await world.send(`/tasks/sync/mechanics${query}`, undefined, {
        method: "GET",
        headers: { "x-user": user },
      });
      assert.equal(status, 200, JSON.stringify(body));
      return body.entries;
    };
    for (const user of ["oz:operator", "vic:viewer"]) {
      // The same keyspace again from cursor 0: Redis's SCAN returns each key a second time, as
      // it does for the buckets it visits again after its table shrank mid-scan.
      const first = await step(user, "");
      const again = await step(user, "?cursor=0-0");
      assert.equal(first.length, 3);
      assert.deepEqual(
        again.map((e: { id: string }) => e.id),
        first.map((e: { id: string }) => e.id),
      );
      assert.equal(new Set(first.map((e: { id: string }) => e.id)).size, 3, "one id a key");
      for (const entry of first) assert.match(entry.id, /^[0-9a-f]{24}$/, "an HMAC, not the key");
      const seen = new Set<string>();
      const found = addFound(addFound(EMPTY, first, seen), again, seen);
      assert.equal(found.dedup.total, 3, `${user}: each key counted once`);
      assert.equal(found.dedup.kept.length, 3, `${user}: each key listed once`);
    }
    const ids = async (user: string) =>
      (await step(user, "")).map((e: { id: string }) => e.id).sort();
    assert.deepEqual(await ids("vic:viewer"), await ids("oz:operator"), "the id hides nothing new");
  }, { board: { auth } });
});

Deno.test("a scan counts at most its cap of keys, then says it is capped", () => {
  const entry = (id: string) => ({ kind: "dedup" as const, id, key: id, jobId: null, state: null });
  const seen = new Set<string>();
  const found = addFound(EMPTY, [entry("a"), entry("b"), entry("a"), entry("c")], seen, 2);
  assert.equal(found.dedup.total, 2);
  assert.equal(found.capped, true);
  assert.equal(seen.size, 2, "the ids kept stay within the cap");
  assert.equal(addFound(EMPTY, [entry("a"), entry("b")], new Set(), 2).capped, false);
});

Deno.test("boards sharing the session secret give a key the same id: replicas answering steps of one scan count it once", async () => {
  await withApp("redis", (app) => app.task("sync", { handler: () => "ok" }), async (world) => {
    const [sync] = [...world.app.getRegisteredTasks()] as Task[];
    await sync.dispatch({}, { deduplicate: { key: "ada@example.com" }, delay: 3_600_000 });
    const replicas = [
      createBoard(world.app, { auth: ADA_LOGIN }),
      createBoard(world.app, { auth: ADA_LOGIN }),
    ];
    const alone = createBoard(world.app);
    try {
      const cookie = await signInAda(replicas[0].fetch);
      const idsOf = async (board: ReturnType<typeof createBoard>) => {
        const response = await board.fetch(
          new Request("http://board.test/board/api/tasks/sync/mechanics", { headers: { cookie } }),
        );
        assert.equal(response.status, 200);
        return (await response.json()).entries.map((entry: { id: string }) => entry.id);
      };
      const [one, other] = [await idsOf(replicas[0]), await idsOf(replicas[1])];
      assert.equal(one.length, 1);
      assert.deepEqual(other, one);
      // A board with no session secret draws a key of its own.
      assert.notDeepEqual(await idsOf(alone), one);
    } finally {
      await Promise.all([...replicas, alone].map((board) => board.close()));
    }
  });
});
