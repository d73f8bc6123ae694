/**
 * How long the job page's main thread is busy with big payloads, in Debian's
 * Chromium on real Redis: a failed job with a 10 MB input and 10,000 log
 * lines (open the Data tab, the Logs tab, filter by level, open a line's
 * meta) and a value 5,000 levels deep (open the Data tab and one level).
 * Reports the longest main-thread task (Long Tasks API) after the page has
 * booted, over a few runs: the browser tests check what is rendered (a
 * bounded number of rows and tree items), this measures how long it took.
 *
 * Run: `deno run -A tests/bench/payload_render.ts`.
 */

import type { Page } from "playwright-core";
import { withClient } from "../helpers/redis_server.ts";
import { writeBigJob, writeDeepJob } from "../helpers/big_payloads.ts";
import { withBoard } from "../e2e/harness.ts";

const RUNS = 5;
const median = (xs: number[]) => xs.toSorted((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Watches main-thread tasks over 50 ms from page load; {@link longestSince} reads them. */
async function watchLongTasks(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = globalThis as unknown as { longTasks: [number, number][] };
    w.longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.longTasks.push([entry.startTime, entry.duration]);
    }).observe({ type: "longtask", buffered: true });
  });
}

async function mark(page: Page): Promise<number> {
  return await page.evaluate(() => performance.now());
}

async function longestSince(page: Page, since: number): Promise<number> {
  return await page.evaluate((since) => {
    const w = globalThis as unknown as { longTasks: [number, number][] };
    return Math.max(0, ...w.longTasks.filter(([at]) => at >= since).map(([, ms]) => ms));
  }, since);
}

await withBoard({}, async ({ page, root, redis }) => {
  const [big, deep] = await withClient(
    redis.url,
    async (client) => [await writeBigJob(client), await writeDeepJob(client)],
  );
  await watchLongTasks(page);
  const bigRuns: number[] = [];
  const deepRuns: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    await page.goto(`${root}jobs/${big}`);
    await page.getByRole("tab", { name: /Data/ }).waitFor();
    let since = await mark(page);
    await page.getByRole("tab", { name: /Data/ }).click();
    await page.getByRole("button", { name: /^Load all 10\.0 MB/ }).waitFor();
    await page.getByRole("tab", { name: /Logs/ }).click();
    await page.getByText("line 9999", { exact: true }).waitFor();
    await page.getByLabel("Level").selectOption("error");
    await page.getByText("line 0", { exact: true }).waitFor();
    await page.locator("details.log-meta summary").first().click();
    await page.getByRole("tree", { name: "Log meta" }).waitFor();
    bigRuns.push(await longestSince(page, since));

    await page.goto(`${root}jobs/${deep}`);
    await page.getByRole("tab", { name: /Data/ }).waitFor();
    since = await mark(page);
    await page.getByRole("tab", { name: /Data/ }).click();
    const tree = page.getByRole("tree", { name: "Job data" });
    await tree.waitFor();
    await tree.getByRole("button").last().click();
    deepRuns.push(await longestSince(page, since));
  }
  const show = (xs: number[]) =>
    `median ${median(xs).toFixed(0)} ms, slowest ${
      Math.max(...xs).toFixed(0)
    } ms (0: none over 50 ms)`;
  console.log(`10 MB input + 10,000 log lines, longest main-thread task: ${show(bigRuns)}`);
  console.log(`value 5,000 levels deep, longest main-thread task: ${show(deepRuns)}`);
});
