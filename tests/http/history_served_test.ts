/**
 * The history's reads over a socket, on each server a board runs on
 * (`Deno.serve(board.fetch)`, `board.listen` as the CLI runs it, node:http
 * with `board.handler`): the search with its filters and its cursor, one
 * summary, the archived job page and its attempts, the export, the charts
 * and the week answer the same as the board answers in process, and a bad
 * field is the same 400 naming it. The browser files about these pages run
 * on one server each; this runs every read on all three.
 */

import assert from "node:assert/strict";
import { createBoard } from "../../mod.ts";
import type { HistoryEntry } from "../../src/history/summary.ts";
import { RedisConnection } from "../../src/source/redis/client.ts";
import { taskKeys } from "../../src/source/wire/keys.ts";
import { createRedisHistoryStore } from "../../src/store/redis/history/store.ts";
import { startRedis } from "../helpers/redis_server.ts";
import { SERVE_PATHS, serveBoard } from "../helpers/serve_board.ts";

const HOUR = 3_600_000;

/** Attempt `attempt` of job `id` of `task`, ended `outcome` `agoMs` ago with `error`. */
function entry(
  task: string,
  id: string,
  { attempt, outcome, agoMs, error }: {
    attempt: number;
    outcome: HistoryEntry["outcome"];
    agoMs: number;
    error: string | null;
  },
): HistoryEntry {
  const endedAt = Date.now() - agoMs;
  return {
    task,
    id,
    event: `${endedAt}-${attempt}`,
    attempt,
    outcome,
    version: 3,
    createdAt: endedAt - 5_000 * attempt,
    startedAt: endedAt - 400,
    endedAt,
    error,
    errorShape: error === null ? null : "timeout",
  };
}

/** The reads, each a path below `/board/api`, and the search's second page once known. */
const READS = [
  "/history/jobs?limit=2",
  "/history/jobs?state=failed,completed&error=GATEWAY%20timeout&version=3",
  "/history/jobs?task=" + encodeURIComponent("отчёты") + "&idPrefix=job%20",
  "/history/jobs?from=2020-01-01T00%3A00%3A00Z&to=" +
  encodeURIComponent(new Date(2e12).toISOString()),
  "/history/tasks/" + encodeURIComponent("отчёты") + "/jobs/job%20one",
  "/history/tasks/billing/jobs/missing",
  "/jobs/refund-7",
  "/jobs/refund-7/attempts",
  "/history/jobs/export?format=ndjson&task=billing",
  "/history/jobs/export?format=csv",
  "/history/rollups?range=7d&task=billing",
  "/history/week?task=billing",
  "/history/jobs?limit=0",
  "/history/jobs?state=done",
  "/history/jobs?cursor=not-a-cursor",
];

/** Status, content type and body, with the times that move between two reads left out. */
async function answerOf(response: Response): Promise<string> {
  const type = response.headers.get("content-type") ?? "";
  const body = (await response.text()).replaceAll(/"asOf":\d+/g, '"asOf":0');
  return `${response.status} ${type.split(";")[0]}\n${body}`;
}

Deno.test("every history read answers the same over Deno.serve, listen and node:http", async () => {
  const redis = await startRedis();
  const board = createBoard(redis.url, { history: true });
  const connection = new RedisConnection({ url: redis.url });
  try {
    await connection.ready();
    // A job taskora still holds, so the source knows the task whose removed jobs are archived.
    const held = taskKeys("billing").jobPrefix + "invoice-3";
    await connection.pipeline([
      ["HSET", held, "state", "completed", "_v", "3", "ts", String(Date.now())],
      ["ZADD", taskKeys("billing").completed, String(Date.now()), "invoice-3"],
    ]);
    await createRedisHistoryStore({ connection }).write({
      entries: [
        entry("billing", "refund-7", {
          attempt: 1,
          outcome: "retrying",
          agoMs: 2 * HOUR,
          error: "gateway timeout #1",
        }),
        entry("billing", "refund-7", {
          attempt: 2,
          outcome: "failed",
          agoMs: 2 * HOUR - 10_000,
          error: "gateway timeout #2",
        }),
        entry("billing", "invoice-2", {
          attempt: 1,
          outcome: "completed",
          agoMs: HOUR,
          error: null,
        }),
        entry("отчёты", "job one", {
          attempt: 1,
          outcome: "completed",
          agoMs: 30_000,
          error: null,
        }),
      ],
    });
    // The first page ends on the newest job, of a task whose name is not Latin-1.
    const first = await board.fetch(new Request("http://localhost/board/api/history/jobs?limit=1"));
    assert.equal(first.status, 200, await first.clone().text());
    const { next } = await first.json();
    assert.ok(next, "a second page");
    const reads = [...READS, `/history/jobs?limit=2&cursor=${encodeURIComponent(next)}`];
    const expected = await Promise.all(
      reads.map(async (path) =>
        await answerOf(await board.fetch(new Request(`http://localhost/board/api${path}`)))
      ),
    );
    assert.match(expected.at(-1)!, /^200 application\/json\n.*refund-7/s, "the second page");
    assert.match(expected[1], /^200 .*refund-7/s, "the error search finds the job");
    assert.match(expected[4], /^200 .*"id":"job one"/s, "a summary of a task named in UTF-8");
    assert.match(expected[6], /^200 .*"archived"/s, "the archived job page");
    assert.match(expected[12], /^400 .*"limit/s);
    assert.match(expected[13], /^400 .*"state/s);
    for (const via of SERVE_PATHS) {
      const server = await serveBoard(board, via);
      try {
        for (const [i, path] of reads.entries()) {
          const answer = await answerOf(await fetch(`${server.url}/board/api${path}`));
          assert.equal(answer, expected[i], `${via}: GET ${path}`);
        }
      } finally {
        await server.stop();
      }
    }
  } finally {
    await connection.close();
    await board.close();
    await redis.stop();
  }
});
