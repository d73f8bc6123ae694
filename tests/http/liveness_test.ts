/**
 * `GET /tasks/{task}/liveness` and `GET /scheduler`: the locks of the named
 * jobs, the active jobs without a lock and the scheduler leader lock, with clear refusals
 * for bad ids and a plain "not known" from a source that cannot read them.
 */

import assert from "node:assert/strict";
import { createBoard } from "../helpers/checked_board.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import type { TaskSource } from "../../src/source/types.ts";
import { readFixture } from "../helpers/fixture.ts";

const ACTIVE = "485336b8-640e-4fb4-8639-b47005927994";

function board(source: TaskSource = createMemorySource({ seed: readFixture() })) {
  const { fetch } = createBoard(source);
  return async (path: string) => {
    const response = await fetch(new Request(`http://board.test/board/api${path}`));
    return { status: response.status, body: await response.json() };
  };
}

Deno.test("liveness names each asked job's lock, in the order asked, with when it was read", async () => {
  const get = board();
  const before = Date.now();
  const { status, body } = await get(`/tasks/slow/liveness?id=${ACTIVE}&id=other`);
  assert.equal(status, 200);
  assert.equal(body.task, "slow");
  assert.equal(body.known, true);
  assert.ok(body.readAt >= before && body.readAt <= Date.now());
  assert.deepEqual(body.locks.map((lock: { id: string }) => lock.id), [ACTIVE, "other"]);
  assert.deepEqual(
    body.stalled,
    { ids: [ACTIVE], total: 1, checked: 1 },
    "the fixture's one active job holds no lock",
  );
});

Deno.test("liveness refuses bad ids and unknown tasks with the catalogue's errors", async () => {
  const get = board();
  const many = Array.from({ length: 101 }, (_, i) => `id=j${i}`).join("&");
  const tooMany = await get(`/tasks/slow/liveness?${many}`);
  assert.equal(tooMany.status, 400);
  assert.equal(tooMany.body.code, "INVALID_PARAM");
  assert.match(tooMany.body.error, /at most 100 job ids \(got 101\)/);
  const empty = await get("/tasks/slow/liveness?id=");
  assert.equal(empty.status, 400);
  assert.match(empty.body.error, /^Invalid id: must be 1 to 256 characters/);
  const long = await get(`/tasks/slow/liveness?id=${"x".repeat(257)}`);
  assert.equal(long.status, 400);
  const unknown = await get("/tasks/no-such-task/liveness");
  assert.equal(unknown.status, 404);
  assert.equal(unknown.body.code, "TASK_NOT_FOUND");
});

Deno.test("a source without liveness reads says it does not know, and still 404s an unknown task", async () => {
  const memory = createMemorySource({ seed: readFixture() });
  const unread = new Set<PropertyKey>(["readLocks"]);
  // A TaskSource written before liveness: its optional read of locks is absent.
  const bare = new Proxy(memory, {
    get(target, key) {
      if (unread.has(key)) return undefined;
      const value = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  }) as TaskSource;
  const get = board(bare);
  const task = await get(`/tasks/slow/liveness?id=${ACTIVE}`);
  assert.equal(task.status, 200);
  assert.equal(task.body.known, false);
  assert.match(task.body.reason, /does not read job locks/);
  assert.equal((await get("/tasks/no-such-task/liveness")).status, 404);
  const scheduler = await get("/scheduler");
  assert.equal(scheduler.body.known, false);
  assert.equal(typeof scheduler.body.readAt, "number");
});

Deno.test("the scheduler route answers who leads, or null when no scheduler holds the lock", async () => {
  const { status, body } = await board()("/scheduler");
  assert.equal(status, 200);
  assert.deepEqual({ known: body.known, leader: body.leader }, { known: true, leader: null });
});
