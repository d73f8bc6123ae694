/**
 * The takeover benchmark (issue 23): three CLI board processes on one real
 * Redis. Each run bulk-retries 20,000 failed jobs (written as taskora
 * leaves them) through one board, kills the operation's runner with SIGKILL
 * once a third of it is done, and follows the operation through a
 * surviving board until another replica has taken it over (the record names
 * a new runner) and until it is done; a new process then replaces the
 * killed one. Prints the median, fastest and slowest of both times, from
 * the kill. Part of `deno task bench`.
 */

import type { BulkOperation } from "../../src/contract/bulk.ts";
import { type BoardProcess, startBoardProcesses } from "../helpers/board_processes.ts";
import { pipeCommands } from "../helpers/redis_pipe.ts";
import { startRedis } from "../helpers/redis_server.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { failedJobCommands } from "../helpers/wire_writer.ts";

const RUNS = 5;
const JOBS = 20_000;

const redis = await startRedis();
const started = [await startBoardProcesses({ count: 3, cliArgs: ["--redis", redis.url] })];
let boards: BoardProcess[] = started[0].boards;

async function api<T>(board: BoardProcess, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${board.origin}/board/api${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return await response.json();
}

const pidOf = (operation: BulkOperation) => Number(operation.runner?.split(":").at(-2));

/** One run: ms from the kill until another replica holds the operation, and until it is done. */
async function run(task: string): Promise<{ takenOver: number; finished: number }> {
  await pipeCommands(redis.port, failedJobCommands(task, JOBS));
  const { operation } = await api<{ operation: BulkOperation }>(boards[0], "/bulk", {
    action: "retry",
    selector: { task, state: "failed" },
  });
  const runner = boards.find((board) => board.pid === pidOf(operation))!;
  const watcher = boards.find((board) => board !== runner)!;
  const get = () => api<BulkOperation>(watcher, `/operations/${operation.id}`);
  await waitFor(async () => (await get()).done >= JOBS / 3, { what: "a third done" });
  await runner.kill();
  const killedAt = performance.now();
  await waitFor(async () => pidOf(await get()) !== runner.pid, {
    what: "another replica to take the operation over",
    limitMs: 120_000,
    everyMs: 10,
  });
  const takenOver = performance.now() - killedAt;
  const last = await waitFor(async () => {
    const now = await get();
    return now.status === "running" ? null : now;
  }, { what: "the operation to end", limitMs: 120_000, everyMs: 10 });
  const finished = performance.now() - killedAt;
  if (last.status !== "done" || last.done + last.skipped < JOBS) {
    throw new Error(`the operation ended ${last.status}: ${JSON.stringify(last)}`);
  }
  // A deploy brings the killed process back.
  const replacement = await startBoardProcesses({ count: 1, cliArgs: ["--redis", redis.url] });
  started.push(replacement);
  boards = [...boards.filter((board) => board !== runner), ...replacement.boards];
  return { takenOver, finished };
}

const runs: { takenOver: number; finished: number }[] = [];
try {
  for (let i = 0; i < RUNS; i++) runs.push(await run(`takeover-${i}`));
} finally {
  for (const processes of started) await processes.stop();
  await redis.stop();
}

function line(label: string, values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  return `| ${label} | ${s(sorted[Math.floor(sorted.length / 2)])} | ${s(sorted[0])} | ${
    s(sorted.at(-1)!)
  } |`;
}

console.log(
  `\ntakeover after kill -9 of a bulk retry's runner, 3 CLI boards, ${JOBS.toLocaleString("en")} ` +
    `jobs, ${RUNS} runs, from the kill`,
);
console.log("| measure | median | fastest | slowest |");
console.log("|---|---|---|---|");
console.log(line("another replica holds the operation", runs.map((r) => r.takenOver)));
console.log(line("the operation is done", runs.map((r) => r.finished)));
