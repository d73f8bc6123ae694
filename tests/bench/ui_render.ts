/**
 * How fast the UI turns API answers into pixels, in Debian's Chromium on
 * real Redis holding the taskora fixture (plus 20 tasks of filler jobs):
 *
 * - **first overview render**: from the moment the `/api/overview` response
 *   has arrived (its Resource Timing `responseEnd`) to the first frame in
 *   which the state counters show numbers, over 15 cold page loads;
 * - **a burst of 1,000 live events**: 1,000 `progress` events XADDed at once
 *   for jobs shown on a task page; reports the longest main-thread task
 *   (Long Tasks API) and how many renders the page made (frames with a DOM
 *   change), which batching per animation frame keeps small.
 *
 * Prints medians and the slowest run. Run: `deno run -A tests/bench/ui_render.ts`.
 */

import { connectClient } from "../helpers/redis_server.ts";
import { writeJob } from "../helpers/wire_writer.ts";
import { taskKeys } from "../../src/source/wire/keys.ts";
import { withBoard } from "../e2e/harness.ts";

const RUNS = 15;
const BURST = 1000;

const median = (xs: number[]) => xs.toSorted((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (n: number) => `${n.toFixed(1)} ms`;

await withBoard({}, async ({ page, root, redis }) => {
  const client = await connectClient(redis.url);
  try {
    // Before any page script runs: note the first frame whose counters show numbers.
    await page.addInitScript(() => {
      const g = globalThis as unknown as { __countersShownAt?: number };
      const observer = new MutationObserver(() => {
        const value = document.querySelector(".counter.state-completed .counter-value");
        if (!value || !/\d/.test(value.textContent ?? "")) return;
        observer.disconnect();
        requestAnimationFrame(() => g.__countersShownAt = performance.now());
      });
      addEventListener("DOMContentLoaded", () => {
        observer.observe(document.body, { subtree: true, childList: true, characterData: true });
      });
    });
    const gaps: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      await page.goto("about:blank");
      await page.goto(root);
      await page.locator(".counter.state-completed .counter-value").filter({ hasText: "29" })
        .waitFor();
      const gap = await page.evaluate(() => {
        const api = performance.getEntriesByType("resource")
          .find((entry) =>
            new URL(entry.name).pathname.endsWith("/api/overview")
          ) as PerformanceResourceTiming;
        const shown = (globalThis as unknown as { __countersShownAt?: number }).__countersShownAt;
        return shown === undefined ? null : shown - api.responseEnd;
      });
      if (gap === null) throw new Error("the page did not record when the counters appeared");
      gaps.push(gap);
    }
    console.log(
      `first overview render after /api/overview answered: median ${ms(median(gaps))}, slowest ${
        ms(Math.max(...gaps))
      } (${RUNS} loads)`,
    );

    // A task page with 50 active jobs on screen (of a fixture task, whose event
    // stream the board already reads), then 1,000 progress events for them.
    const ids: string[] = [];
    for (let i = 0; i < 50; i++) {
      ids.push(await writeJob(client, { task: "report", state: "active", data: { i } }));
    }
    await page.goto(`${root}tasks/report?state=active`);
    await page.getByRole("link", { name: ids[0] }).waitFor();
    await page.evaluate(() => {
      const g = globalThis as unknown as { __longest: number; __renders: number };
      g.__longest = 0;
      g.__renders = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) g.__longest = Math.max(g.__longest, entry.duration);
      }).observe({ type: "longtask" });
      let pending = false;
      new MutationObserver(() => {
        if (pending) return;
        pending = true;
        requestAnimationFrame(() => {
          g.__renders++;
          pending = false;
        });
      }).observe(document.querySelector("main")!, {
        subtree: true,
        childList: true,
        characterData: true,
        attributes: true,
      });
    });
    const events = taskKeys("report").events;
    const at = Date.now();
    await Promise.all(Array.from({ length: BURST }, (_, i) =>
      client.sendCommand([
        "XADD",
        events,
        "*",
        "event",
        "progress",
        "jobId",
        ids[i % ids.length],
        "value",
        String(Math.round((i / BURST) * 100)),
        "ts",
        String(at),
      ])));
    await page.waitForTimeout(2000);
    // The last event for each row carries its final value: the rows must show it.
    const last = ids[(BURST - 1) % ids.length];
    const lastValue = Math.round(((BURST - 1) / BURST) * 100);
    await page.getByRole("row", { name: new RegExp(last) }).getByText(`${lastValue}%`).waitFor();
    const { longest, renders } = await page.evaluate(() => {
      const g = globalThis as unknown as { __longest: number; __renders: number };
      return { longest: g.__longest, renders: g.__renders };
    });
    console.log(
      `${BURST} progress events for 50 rows: longest main-thread task ${
        longest ? ms(longest) : "none over 50 ms"
      }, ${renders} renders`,
    );
  } finally {
    await client.close();
  }
});
