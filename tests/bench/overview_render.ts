/**
 * The overview at 1,000 tasks (issue 25), in Debian's Chromium on a real
 * Redis holding a fleet of 1,000 tasks (`tests/helpers/fleet.ts`):
 *
 * - **the answer's size**: `GET /api/overview` whole, and the page the UI
 *   asks for, on the Redis source and on the memory source with the same
 *   tasks;
 * - **first render**: from the moment the overview's answer has arrived (its
 *   Resource Timing `responseEnd`) to the first frame in which the task
 *   table holds its rows (a MutationObserver, then one animation frame),
 *   over cold page loads. The rows expected are the page's 50; a board that
 *   renders every task (the UI before issue 25) is measured with
 *   `--rows 1000` to its last row.
 *
 * Prints medians and the slowest run. Run:
 * `deno run -A tests/bench/overview_render.ts [--rows 50] [--runs 10]`.
 */

import { createBoard } from "../../mod.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { fleetTask, writeFleet } from "../helpers/fleet.ts";
import { launchBrowser } from "../e2e/browser.ts";
import { serveBoard } from "../helpers/serve_board.ts";

const TASKS = 1000;
const flag = (name: string, fallback: number) => {
  const at = Deno.args.indexOf(`--${name}`);
  return at < 0 ? fallback : Number(Deno.args[at + 1]);
};
const ROWS = flag("rows", 50);
const RUNS = flag("runs", 10);

const median = (xs: number[]) => xs.toSorted((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (n: number) => `${n.toFixed(1)} ms`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;

/** The size of an answer, and gzipped. */
async function sizeOf(fetcher: (request: Request) => Response | Promise<Response>, query: string) {
  const text = await (await fetcher(new Request(`http://bench/board/api/overview${query}`))).text();
  const gzipped = await new Response(
    new Blob([text]).stream().pipeThrough(new CompressionStream("gzip")),
  ).arrayBuffer();
  return `${kb(text.length)} (${kb(gzipped.byteLength)} gzipped)`;
}

const QUERIES = ["", "?sort=health&limit=50&offset=0"];

const redis = await startRedis();
const client = await connectClient(redis.url);
const memory = createMemorySource({});
const board = createBoard(redis.url);
const http = await serveBoard(board, "fetch"); // the benchmark measures the UI, on one path
const browser = await launchBrowser();
try {
  await writeFleet(client, TASKS);
  // The same tasks in the memory source: one job each, counted this minute.
  for (let i = 0; i < TASKS; i++) {
    const task = fleetTask(i);
    memory.store.enqueue(task, { id: `j${i}`, data: { i } });
    memory.store.countFinished(task, "completed", Date.now(), 5);
  }
  const memoryBoard = createBoard(memory);
  for (const query of QUERIES) {
    console.log(
      `GET /api/overview${query} at ${TASKS} tasks: Redis ${await sizeOf(board.fetch, query)}, ` +
        `memory ${await sizeOf(memoryBoard.fetch, query)}`,
    );
  }
  await memoryBoard.close();

  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  // Before any page script runs: note the first frame whose task table holds ROWS rows.
  await page.addInitScript((rows: number) => {
    const g = globalThis as unknown as { __rowsShownAt?: number };
    const observer = new MutationObserver(() => {
      if (document.querySelectorAll(".task-table tbody tr").length < rows) return;
      observer.disconnect();
      requestAnimationFrame(() => g.__rowsShownAt = performance.now());
    });
    addEventListener("DOMContentLoaded", () => {
      observer.observe(document.body, { subtree: true, childList: true });
    });
  }, ROWS);
  const gaps: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    await page.goto("about:blank");
    await page.goto(`${http.url}/board/`);
    await page.waitForFunction(
      () => (globalThis as unknown as { __rowsShownAt?: number }).__rowsShownAt !== undefined,
      null,
      {
        timeout: 60_000,
      },
    );
    const gap = await page.evaluate(() => {
      const api = performance.getEntriesByType("resource").find((entry) =>
        new URL(entry.name).pathname.endsWith("/api/overview")
      ) as PerformanceResourceTiming;
      return (globalThis as unknown as { __rowsShownAt: number }).__rowsShownAt - api.responseEnd;
    });
    gaps.push(gap);
  }
  console.log(
    `first render of ${ROWS} task rows at ${TASKS} tasks after /api/overview answered: ` +
      `median ${ms(median(gaps))}, slowest ${ms(Math.max(...gaps))} (${RUNS} loads)`,
  );
} finally {
  await browser.close();
  await http.stop();
  await board.close();
  await memory.close();
  client.destroy();
  await redis.stop();
}
