/**
 * Scan slots across replicas: two boards on one real Redis count the same
 * slots. The measured case: a reader's loops of a slow search, run
 * against both replicas, hold at most half of the slots, so the operator's
 * search and bulk dry run still run; past the cap, whichever replica is
 * asked refuses.
 */

import assert from "node:assert/strict";
import { createBoard } from "../helpers/checked_board.ts";
import { loadFixture } from "../helpers/fixture.ts";
import { startRedis } from "../helpers/redis_server.ts";
import { createRedisSource, type RedisTaskSource } from "../../src/source/redis/mod.ts";

const SAME_ORIGIN = {
  origin: "http://board.test",
  "sec-fetch-site": "same-origin",
  "content-type": "application/json",
};
const SEARCH = "/tasks/send-email/jobs/search?state=failed";

Deno.test("two boards on one Redis share the scan slots: a reader's loops never refuse the operator", async () => {
  const redis = await startRedis();
  await loadFixture(redis.url);
  let open!: () => void;
  const gate = new Promise<void>((resolve) => open = resolve);
  let onEnter = () => {};
  /** A replica's source whose searches wait at the gate. */
  const gated = (source: RedisTaskSource) =>
    new Proxy(source, {
      get(target, property) {
        const value = Reflect.get(target, property);
        if (property !== "searchJobs") {
          return typeof value === "function" ? value.bind(target) : value;
        }
        return async (...args: Parameters<RedisTaskSource["searchJobs"]>) => {
          onEnter();
          await gate;
          return await target.searchJobs(...args);
        };
      },
    });
  const sources = [0, 1].map(() => createRedisSource({ url: redis.url }));
  const [a, b] = sources.map((source) =>
    createBoard(gated(source), {
      auth: (request) => {
        const [name, role] = (request.headers.get("x-user") ?? "").split(":");
        return { name, role };
      },
    })
  );
  type Board = typeof a;
  const call = (board: Board, user: string, path: string, body?: unknown) =>
    Promise.resolve(board.fetch(
      new Request(`http://board.test/board/api${path}`, {
        method: body === undefined ? "GET" : "POST",
        headers: { ...SAME_ORIGIN, "x-user": user },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    ));
  /** Starts a request that holds its slot until the gate opens. */
  const holding = async (request: () => Promise<Response>) => {
    const reached = new Promise<void>((resolve) => onEnter = resolve);
    const response = request();
    await reached;
    // In an object: an async function returning the promise would wait for it.
    return { response };
  };
  const refusal = async (board: Board, user: string) => {
    // A search let through would wait at the gate: open it, so the test fails instead of hanging.
    onEnter = open;
    const response = await call(board, user, SEARCH);
    assert.equal(response.status, 409, `${user} is refused`);
    const body = await response.json();
    assert.equal(body.code, "INVALID_STATE");
    return body.error as string;
  };
  try {
    // The reader's four loops, two on each replica: two run, two are refused.
    const held = [
      await holding(() => call(a, "vic:viewer", SEARCH)),
      await holding(() => call(b, "vic:viewer", SEARCH)),
    ];
    assert.match(await refusal(a, "vic:viewer"), /vic holds 2 of the 4/);
    assert.match(await refusal(b, "vic:viewer"), /vic holds 2 of the 4/);
    // The operator's search on one replica and its bulk dry run on the other both run.
    held.push(await holding(() => call(a, "oz:operator", SEARCH)));
    const dryRun = await holding(() =>
      call(b, "oz:operator", "/bulk", {
        action: "retry",
        dryRun: true,
        selector: {
          task: "send-email",
          state: "failed",
          filter: { field: "error", contains: "a" },
        },
      })
    );
    // Every slot over the store is taken now, whichever replica is asked.
    assert.match(await refusal(a, "ann:viewer"), /4 searches or filter counts are running/);
    open();
    for (const response of await Promise.all(held.map((search) => search.response))) {
      assert.equal(response.status, 200);
      await response.body?.cancel();
    }
    const counted = await dryRun.response;
    assert.equal(counted.status, 200);
    assert.equal(typeof (await counted.json()).count, "number");
    // A Redis that cannot be reached: the slot cannot be asked for, 503 as everywhere.
    await redis.stop();
    const away = await call(a, "oz:operator", SEARCH);
    assert.equal(away.status, 503);
    assert.equal((await away.json()).code, "STORE_UNAVAILABLE");
  } finally {
    open();
    await Promise.all([a.close(), b.close()]);
    await Promise.all(sources.map((source) => source.close()));
    await redis.stop();
  }
});
