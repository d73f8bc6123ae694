/**
 * The board on a real 3-master Redis Cluster: real taskora workers write
 * jobs of tasks that live on different masters, the board lists them, one
 * SSE client receives the events of all of them; then a master is killed
 * and the board answers 503 for a while, serves again by itself, the event
 * stream resumes where it was, and a retry made around the failover runs
 * once.
 */

import assert from "node:assert/strict";
import { createBoard } from "../helpers/checked_board.ts";
import { createRedisSource } from "../../src/source/redis/mod.ts";
import { dataOf, isEvent, openStream } from "../events/sse_client.ts";
import { startCluster } from "../helpers/redis_cluster.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { replicated, retryUntilServed } from "../helpers/failover.ts";
import { clusterAdapter } from "../helpers/taskora_cluster.ts";
import { createTaskora } from "../../../shared/taskora/taskora.js";

const cluster = await startCluster();
const client = await cluster.client();
// Discovery's background passes come at most a minute apart, the pause growing with a pass's
// time (30 times it, on a loaded machine tens of seconds): the test asks for the pass it needs
// (`discover`) and leaves the background ones out of play, even at their longest.
const source = createRedisSource({
  cluster: { rootNodes: cluster.rootNodes },
  discoveryIntervalMs: 60_000,
});
const board = createBoard(source);
const api = (path: string, init?: RequestInit) =>
  board.fetch(new Request(`http://board.test/board/api${path}`, init));

/**
 * One discovery pass now, as a board's next pass would find the keyspace: the
 * event stream reads the tasks it finds from the stream's start, so none of
 * their events is lost.
 */
async function discover(): Promise<void> {
  await source.listTasks({ fresh: true });
}

/** One task name per master: each task's keys live in the slot of `{name}`. */
async function tasksOnEveryMaster(): Promise<string[]> {
  const byMaster = new Map<number, string>();
  for (let i = 0; byMaster.size < 3; i++) {
    const name = `task-${i}`;
    const master = await cluster.masterOf(`taskora:{${name}}:wait`);
    if (!byMaster.has(master)) byMaster.set(master, name);
  }
  return [...byMaster.values()];
}

const TASKS = await tasksOnEveryMaster();

Deno.test({
  name:
    "real taskora on the cluster: the board lists its jobs, one SSE client gets every master's events",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const stream = await openStream(board.fetch, "http://board.test/board/api/events");
    await stream.waitFor(isEvent("stats:update"));
    const app = createTaskora({ adapter: clusterAdapter(cluster.rootNodes) });
    const tasks = TASKS.map((name) =>
      app.task(name, { handler: (data: { n: number }) => data.n * 2 })
    );
    await app.start();
    try {
      const results = await Promise.all(
        tasks.map((task, n) => task.dispatch({ n }).result),
      );
      assert.deepEqual(results, [0, 2, 4]);
      await discover(); // the tasks got their first keys after the board started
      for (const name of TASKS) {
        await stream.waitFor(isEvent("job:completed", (d) => d.task === name));
      }
      await waitFor(async () => {
        const overview = await (await api("/overview")).json();
        return TASKS.every((name) =>
          overview.tasks.some((t: { name: string; stats: { completed: number } }) =>
            t.name === name && t.stats.completed === 1
          )
        );
      }, { what: "the board to list every task" });
      for (const name of TASKS) {
        const response = await api(`/tasks/${name}/jobs?state=completed`);
        assert.equal(response.status, 200);
        const jobs = await response.json();
        assert.equal(jobs.length, 1, name);
        const job = await (await api(`/jobs/${jobs[0].id}`)).json();
        assert.equal(job.task, name);
      }
    } finally {
      await app.close();
      await stream.close();
    }
  },
});

Deno.test({
  name:
    "a cluster master failover: 503 for a while, then the board serves, events resume, a retry runs once",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const [victim, other] = TASKS;
    const base = `taskora:{${victim}}`;
    // A failed job of the task whose master will die.
    await client.sendCommand(`${base}:dead-1`, false, [
      "HSET",
      `${base}:dead-1`,
      "state",
      "failed",
      "attempt",
      "3",
      "maxAttempts",
      "3",
      "ts",
      String(Date.now()),
      "error",
      "boom",
      "data",
      "{}",
      "_v",
      "1",
    ]);
    await client.sendCommand(`${base}:failed`, false, [
      "ZADD",
      `${base}:failed`,
      String(Date.now()),
      "dead-1",
    ]);
    const xadd = (task: string, jobId: string, via = client) =>
      via.sendCommand(`taskora:{${task}}:events`, false, [
        "XADD",
        `taskora:{${task}}:events`,
        "*",
        "event",
        "progress",
        "jobId",
        jobId,
        "value",
        "1",
      ]);
    await discover(); // when this test runs alone, the failed job is the task's first key
    const stream = await openStream(board.fetch, "http://board.test/board/api/events");
    await stream.waitFor(isEvent("stats:update"));
    await xadd(victim, "before");
    await stream.waitFor(isEvent("job:progress", (d) => d.id === "before"));
    // Written and replicated, maybe not yet read by the board when its master dies.
    await xadd(victim, "around");
    await replicated(await cluster.masterOf(`${base}:events`));

    const { promoted } = await cluster.killMaster(`${base}:wait`);
    // A retry asked for while the master is going away: repeated until the
    // board confirms it (200) or says it had already run (409).
    const statuses = await retryUntilServed(api, "dead-1");
    await promoted;
    const started = Date.now();
    await waitFor(async () => {
      const response = await api("/overview");
      await response.body?.cancel();
      assert.ok([200, 503].includes(response.status), `status ${response.status}`);
      return response.status === 200;
    }, { what: "the board to serve again" });
    console.log(
      `retry statuses: ${statuses.join(",")}; served again ${
        Date.now() - started
      } ms after the promotion`,
    );

    // The setup client's slot map is stale (it never asks again by itself): a fresh one.
    const writer = await cluster.client();
    // Not doubled: the job is in the queue once.
    const wait = await writer.sendCommand(`${base}:wait`, false, [
      "LRANGE",
      `${base}:wait`,
      "0",
      "-1",
    ]) as string[];
    assert.deepEqual(wait.filter((id) => id === "dead-1"), ["dead-1"]);

    // The stream resumes from the last id it saw: "around" once, then new events of both masters.
    await xadd(victim, "after", writer);
    await xadd(other, "after-other", writer);
    await discover(); // alone, this is the other task's first key
    await stream.waitFor(isEvent("job:progress", (d) => d.id === "after"));
    await stream.waitFor(isEvent("job:progress", (d) => d.id === "after-other"));
    const seen = stream.frames.filter((f) => f.event === "job:progress").map((f) => dataOf(f).id);
    assert.deepEqual(seen.filter((id) => id === "around"), ["around"]);
    assert.deepEqual(seen.filter((id) => id === "before"), ["before"]);
    await stream.close();
  },
});

// Runs even when --filter skips every test, so no server outlives the run.
Deno.test.afterAll(async () => {
  await board.close();
  await source.close();
  await cluster.stop();
});
