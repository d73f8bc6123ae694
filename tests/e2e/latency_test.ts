/**
 * Queue latency in a real browser on real Redis holding the taskora fixture:
 * the overview's oldest-waiting column and per-minute sparkline, and the task
 * page's percentiles with their histograms. Screenshots at 390, 1280 and
 * 1920 px wide.
 */

import assert from "node:assert/strict";
import { connectClient } from "../helpers/redis_server.ts";
import { writeJob } from "../helpers/wire_writer.ts";
import { taskKeys } from "../../src/source/wire/keys.ts";
import { browserTest, screenshot, screenshotView, withBoard } from "./harness.ts";

const MINUTE = 60_000;
const WIDTHS = [390, 1280, 1920];

browserTest(
  "the overview shows each task's oldest waiting job and its jobs per minute",
  async () => {
    await withBoard({}, async ({ page, root, redis }) => {
      const client = await connectClient(redis.url);
      const now = Date.now();
      const old = await writeJob(client, {
        task: "export",
        state: "waiting",
        ts: now - 25 * MINUTE,
      });
      await writeJob(client, { task: "export", state: "waiting", ts: now - MINUTE });
      // One running under a live worker's lock: the queue moves, only too slowly.
      const running = await writeJob(client, {
        task: "export",
        state: "active",
        ts: now - 2 * MINUTE,
      });
      await client.set(`${taskKeys("export").jobPrefix}${running}:lock`, "worker-1", {
        PX: 600_000,
      });
      await client.close();

      await page.goto(root);
      const row = (task: string) => page.getByRole("row", { name: new RegExp(`^${task} `) });
      await row("export").waitFor();
      const age = row("export").locator(".latency-age");
      assert.match(await age.textContent() ?? "", /^oldest waiting 25m(?: \d+s)?$/);
      assert.equal(await age.getAttribute("href"), `jobs/${old}`);
      assert.match(
        await row("export").locator(".health-cell").textContent() ?? "",
        new RegExp(`warning\\s*job ${old.slice(0, 8)} waiting for 25 min \\(over 10 min\\)`),
      );
      // square finished 5 jobs this minute (the fixture's counters, moved to now).
      const spark = row("square").getByRole("img", {
        name: /completed, \d+ failed in the last 60 min/,
      });
      assert.match(await spark.getAttribute("aria-label") ?? "", /^5 completed, 0 failed/);
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 900 });
        await page.waitForTimeout(150);
        await screenshot(page, `latency-overview-${width}`);
        if (width >= 1280) {
          // Every column in view, none under the scroll edge.
          const [table, wrap] = await page.locator(".task-table").evaluate((t) => [
            t.scrollWidth,
            t.parentElement!.clientWidth,
          ]);
          assert.ok(table <= wrap, `${width} px: the task table is ${table} px in ${wrap} px`);
        }
        await screenshotView(row("send-email"), `latency-row-${width}`);
      }
    });
  },
);

browserTest("the task page shows wait and run percentiles with their histograms", async () => {
  await withBoard({}, async ({ page, root, redis }) => {
    const client = await connectClient(redis.url);
    const now = Date.now();
    // Forty finished square jobs: waits of 0.1 to 4 s, runs of 20 ms to 8 s.
    for (let i = 1; i <= 40; i++) {
      const ts = now - 30 * MINUTE + i * 1000;
      const id = await writeJob(client, {
        task: "square",
        state: "completed",
        ts,
        finishedOn: ts + i * 100 + i * i * 5 + 20,
      });
      await client.sendCommand([
        "HSET",
        `taskora:{square}:${id}`,
        "processedOn",
        String(ts + i * 100),
      ]);
    }
    await client.close();

    await page.goto(`${root}tasks/square`);
    const card = page.locator("section.card", {
      has: page.getByRole("heading", { name: "Latency" }),
    });
    await card.getByRole("img", { name: /^Wait \(run-at to start\) histogram/ }).waitFor();
    const text = await card.textContent() ?? "";
    assert.match(text, /newest \d+ of at most 1,000 finished jobs/);
    assert.match(text, /p50/);
    assert.match(text, /Oldest waiting\s*none waiting/);
    const run = card.getByRole("img", { name: /^Run \(last attempt\) histogram/ });
    assert.match(await run.getAttribute("aria-label") ?? "", /≤ 2\.5 s \d+/);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await page.waitForTimeout(150);
      await card.scrollIntoViewIfNeeded();
      await screenshot(page, `latency-task-${width}`);
      await screenshotView(card, `latency-card-${width}`);
    }
  });
});
