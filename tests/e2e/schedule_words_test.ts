/**
 * Schedules in words, with their next runs on hover, in a real browser on
 * real Redis holding the taskora fixture (`nightly-report` runs
 * `0 3 * * *`, `heartbeat` every second).
 */

import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { browserTest, screenshot, withBoard } from "./harness.ts";

function row(page: Page, text: string) {
  return page.locator("tbody tr", { hasText: text }).first();
}

browserTest(
  "a cron schedule reads in words in its own zone, its next five runs on hover",
  async () => {
    await withBoard({}, async ({ page, root }) => {
      await page.goto(`${root}schedules`);
      const nightly = row(page, "nightly-report");
      await nightly.locator(".schedule-words", {
        hasText: "At 03:00, every day (worker time zone)",
      })
        .waitFor();
      assert.match(await row(page, "heartbeat").textContent() ?? "", /Every second/);

      const status = await page.evaluate(async () =>
        (await fetch("api/schedules/nightly-report", {
          method: "PUT",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ timezone: "Europe/Berlin" }),
        })).status
      );
      assert.equal(status, 200);
      await page.reload();
      await nightly.locator(".schedule-words", { hasText: "At 03:00, every day (Europe/Berlin)" })
        .waitFor();
      assert.match(await nightly.locator(".schedule-cron").textContent() ?? "", /^0 3 \* \* \*$/);

      const runs = nightly.locator(".schedule-upcoming li");
      assert.equal(await runs.first().isVisible(), false, "hidden until hovered");
      await nightly.locator(".schedule-upcoming-host").hover();
      await runs.first().waitFor();
      assert.equal(await runs.count(), 5);
      for (const text of await runs.locator("time").allTextContents()) {
        assert.match(text, /03:00:00( AM)? Europe\/Berlin/);
      }
      for (const width of [390, 1280, 1920]) {
        await page.setViewportSize({ width, height: 900 });
        await nightly.locator(".schedule-upcoming-host").hover();
        await screenshot(page, `schedule-next-runs-${width}`);
      }
    });
  },
);
