/**
 * A history search across every task, for a user whose `can` refuses some
 * tasks' `history.read`: the refused task's jobs are left out of the page,
 * and the page's `next` (where the store stopped looking) names none of
 * their ids, while paging on still finds every job the user may read.
 */

import assert from "node:assert/strict";
import { createBoard } from "../helpers/checked_board.ts";
import { RedisConnection } from "../../src/source/redis/client.ts";
import { createRedisHistoryStore } from "../../src/store/redis/history/store.ts";
import type { HistoryEntry } from "../../src/history/summary.ts";
import { startRedis } from "../helpers/redis_server.ts";

/** A completed job `id` of `task` that ended at `endedAt`. */
function completed(task: string, id: string, endedAt: number): HistoryEntry {
  return {
    task,
    id,
    event: `${endedAt}-${id}`,
    attempt: 1,
    outcome: "completed",
    version: 1,
    createdAt: endedAt - 200,
    startedAt: endedAt - 100,
    endedAt,
    error: null,
    errorShape: null,
  };
}

Deno.test("a history page's cursor names no job of a task the user may not read", async () => {
  const redis = await startRedis();
  const board = createBoard(redis.url, {
    history: true,
    auth: (request) => {
      const name = request.headers.get("x-user");
      return name ? { name, role: "viewer" } : undefined;
    },
    can: (_user, action, target) => !(action === "history.read" && target === "payroll"),
  });
  const connection = new RedisConnection({ url: redis.url });
  try {
    await connection.ready();
    const at = Date.now() - 60_000;
    await createRedisHistoryStore({ connection }).write({
      entries: [
        completed("mail", "mail-1", at - 2000),
        completed("payroll", "salary-of-alice", at - 1000),
        completed("mail", "mail-2", at),
      ],
    });
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 10; pages++) {
      const more: string = cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`;
      const response = await board.fetch(
        new Request(`http://board.test/board/api/history/jobs?limit=1${more}`, {
          headers: { "x-user": "vic" },
        }),
      );
      assert.equal(response.status, 200);
      const body = await response.json();
      seen.push(...body.jobs.map((job: { id: string }) => job.id));
      cursor = body.next;
      if (cursor === null) break;
      assert.doesNotMatch(atob(cursor), /salary-of-alice/, "the refused job's id is not told");
    }
    assert.deepEqual(seen, ["mail-2", "mail-1"], "every job the user may read, once");
  } finally {
    await connection.close();
    await board.close();
    await redis.stop();
  }
});
