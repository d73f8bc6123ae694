/**
 * History on Redis stops at its cap and says so: a board recording a real
 * taskora worker's jobs past `maxSummaries` and `maxPerTask` keeps the
 * newest, and its `/metrics` says how many it holds, that a cap cut it, how
 * many went and the newest end among them.
 */

// deno-lint-ignore-file no-explicit-any
import assert from "node:assert/strict";
import { RedisConnection } from "../../src/source/redis/client.ts";
import { createRedisHistoryStore } from "../../src/store/redis/history/store.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { taskOf, withApp } from "../taskora/harness.ts";

/** A series' value in an exposition, or undefined when it is absent. */
function valueOf(text: string, series: string): number | undefined {
  const line = text.split("\n").find((line) => line.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

Deno.test("redis history: past its caps it keeps the newest, and /metrics says it was capped", async () => {
  await withApp("redis", (app: any) => {
    for (const task of ["resize", "notify"]) {
      app.task(task, {
        handler: (data: { n: number }, ctx: { heartbeat(): void }) => {
          ctx.heartbeat();
          return data.n;
        },
      });
    }
  }, async (world) => {
    const scrape = async () => {
      const response = await world.board.fetch(new Request("http://localhost/board/metrics"));
      return await response.text();
    };
    const before = await scrape();
    assert.equal(valueOf(before, "queue_board_history_capped"), 0);
    const connection = new RedisConnection({ url: world.url });
    try {
      await connection.ready();
      const history = createRedisHistoryStore({ connection });
      // One at a time, each recorded before the next: the order of their ends is the dispatch's.
      const ids: Record<string, string[]> = { resize: [], notify: [] };
      const dispatch = async (task: string, n: number) => {
        const id = String(await taskOf(world.app, task).dispatch({ n }));
        ids[task].push(id);
        await waitFor(async () => await history.summary(task, id), {
          what: `${task} ${n} recorded`,
        });
      };
      for (let n = 0; n < 6; n++) await dispatch("resize", n);
      for (let n = 0; n < 2; n++) await dispatch("notify", n);
      const { summaries } = await history.search({ limit: 200 });
      // maxPerTask 4 cut resize to its newest 4, then maxSummaries 5 cut the oldest of those.
      assert.deepEqual(
        summaries.map((s) => `${s.task} ${s.id}`),
        [
          ...ids.notify.toReversed().map((id) => `notify ${id}`),
          ...ids.resize.slice(3).toReversed().map((id) => `resize ${id}`),
        ],
        "the newest are kept",
      );
      const holding = await history.holding();
      assert.equal(holding.capped?.dropped, 3);
      const text = await scrape();
      assert.equal(valueOf(text, "queue_board_history_summaries"), 5);
      assert.equal(valueOf(text, "queue_board_history_capped"), 1);
      assert.equal(valueOf(text, "queue_board_history_capped_dropped_total"), 3);
      assert.equal(
        valueOf(text, "queue_board_history_capped_newest_timestamp_seconds"),
        holding.capped!.newestDroppedAt / 1000,
      );
      assert.equal(
        valueOf(text, "queue_board_history_oldest_timestamp_seconds"),
        holding.oldestAt! / 1000,
      );
    } finally {
      await connection.close();
    }
  }, { boardOn: "url", board: { history: { maxSummaries: 5, maxPerTask: 4 } } });
});
