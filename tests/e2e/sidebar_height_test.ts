/**
 * The sidebar spans the page's height: on an overview over 3,000 px tall
 * (a full page of 50 tasks: the taskora fixture plus 60 more, on real Redis), the sidebar's
 * column is the sidebar's colour down to the page's bottom, scrolled or
 * captured whole, and the sidebar itself stays in view, full height, as
 * the page scrolls.
 */

import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { connectClient } from "../helpers/redis_server.ts";
import { writeJob } from "../helpers/wire_writer.ts";
import { browserTest, screenshot, withBoard } from "./harness.ts";

const EXTRA_TASKS = 60;

/** The colour painted at a point of the page (page coordinates), read from a capture of it. */
async function colourAt(page: Page, x: number, y: number): Promise<string> {
  const png = await page.screenshot({ clip: { x, y, width: 1, height: 1 }, fullPage: true });
  return await page.evaluate(async (bytes) => {
    const bitmap = await createImageBitmap(
      new Blob([new Uint8Array(bytes)], { type: "image/png" }),
    );
    const canvas = new OffscreenCanvas(1, 1);
    const context = canvas.getContext("2d")!;
    context.drawImage(bitmap, 0, 0);
    return Array.from(context.getImageData(0, 0, 1, 1).data.slice(0, 3)).join(",");
  }, Array.from(png));
}

browserTest("the sidebar's column reaches the bottom of a page 3,000+ px tall", async () => {
  await withBoard({}, async ({ page, root, redis }) => {
    const client = await connectClient(redis.url);
    for (let i = 0; i < EXTRA_TASKS; i++) {
      await writeJob(client, { task: `long-page-${String(i).padStart(2, "0")}`, state: "waiting" });
    }
    await client.close();
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(root);
    // The task list shows 50 tasks a page: wait for the page to be full.
    await page.locator(".task-table tbody tr").nth(49).waitFor();
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    assert.ok(height > 3000, `the page is ${height} px tall`);

    const sidebarColour = await colourAt(page, 20, 400);
    for (const y of [height / 2, height - 5]) {
      assert.equal(
        await colourAt(page, 20, Math.floor(y)),
        sidebarColour,
        `at ${y} px of ${height}`,
      );
    }

    await page.evaluate(() => scrollTo(0, document.documentElement.scrollHeight));
    const box = await page.locator(".sidebar").evaluate((el) => {
      const { top, bottom } = el.getBoundingClientRect();
      return { top, bottom, viewport: innerHeight };
    });
    // Within a pixel: the page may scroll by fractions.
    assert.ok(Math.abs(box.top) <= 1 && box.bottom >= box.viewport - 1, JSON.stringify(box));
    await page.evaluate(() => scrollTo(0, 0));
    for (const width of [390, 1280, 1920]) {
      await page.setViewportSize({ width, height: 900 });
      await screenshot(page, `sidebar-long-overview-${width}`);
    }
  });
});

browserTest(
  "on a phone a page shorter than the screen leaves the sidebar its own height",
  async () => {
    await withBoard({}, async ({ page, root }) => {
      await page.setViewportSize({ width: 390, height: 1400 });
      await page.goto(`${root}activity`);
      await page.getByText("No activity yet").waitFor();
      const gap = await page.locator(".sidebar").evaluate((sidebar) => {
        const last = [...sidebar.children].filter((el) => el.getBoundingClientRect().height > 0).at(
          -1,
        )!;
        return sidebar.getBoundingClientRect().bottom - last.getBoundingClientRect().bottom -
          parseFloat(getComputedStyle(sidebar).paddingBottom);
      });
      assert.ok(gap <= 1, `${gap} px of empty sidebar under its links`);
    });
  },
);
