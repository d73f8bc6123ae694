/**
 * The runs the board dispatched, on the schedules page, in a real browser
 * on real Redis holding the taskora fixture: taskora keeps only a
 * schedule's last run, and the page says so.
 */

import assert from "node:assert/strict";
import { browserTest, screenshot, withBoard } from "./harness.ts";

browserTest(
  "a schedule lists the runs the board dispatched, each with its job's state and link",
  async () => {
    await withBoard({}, async ({ page, root }) => {
      await page.goto(`${root}schedules`);
      await page.getByText("taskora keeps only each schedule's last run").waitFor();
      const heartbeat = page.locator("tbody tr", { hasText: "heartbeat" }).first();
      await heartbeat.getByRole("button", { name: "Run now" }).click();
      const confirm = page.getByRole("dialog");
      if (await confirm.isVisible()) await confirm.getByRole("button", { name: /Run now/ }).click();

      const runs = heartbeat.locator(".schedule-board-runs");
      await runs.locator("summary", { hasText: "Run from the board: 1" }).waitFor();
      await runs.locator("summary").click();
      const run = runs.locator("li").first();
      assert.match(await run.textContent() ?? "", /waiting/i, "no worker runs it here");
      const href = await run.getByRole("link").getAttribute("href");
      assert.match(href ?? "", /^jobs\/[0-9a-f-]{36}$/);
      for (const width of [390, 1280, 1920]) {
        await page.setViewportSize({ width, height: 900 });
        await screenshot(page, `schedule-board-runs-${width}`);
      }
    });
  },
);
