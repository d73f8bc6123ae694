/**
 * Big payloads in a real browser, on Redis in taskora's wire format: a job
 * with a 10 MB input and 10,000 log lines renders a bounded page (a preview
 * of the input, one page of log lines; how long the main thread is busy is
 * measured by `tests/bench/payload_render.ts`, not asserted here); a value
 * 5,000 levels deep renders as a lazy tree; "Load all" fetches a truncated payload; logs filter by level; the
 * shortcuts are listed behind `?`; overview counters and task cells open
 * the matching tab.
 */

import assert from "node:assert/strict";
import { withClient } from "../helpers/redis_server.ts";
import { writeBigJob, writeDeepJob } from "../helpers/big_payloads.ts";
import { browserTest, screenshot, withBoard } from "./harness.ts";

browserTest("a 10 MB input and 10,000 log lines render a bounded job page", async () => {
  await withBoard({}, async ({ page, root, redis }) => {
    const id = await withClient(redis.url, writeBigJob);
    await page.goto(`${root}jobs/${id}`);
    await page.getByRole("tab", { name: /Data/ }).waitFor();
    await page.getByRole("tab", { name: /Data/ }).click();
    await page.getByText(/Too big to show at once/).waitFor();
    await page.getByRole("button", { name: /^Load all 10\.0 MB/ }).waitFor();
    const shown = await page.evaluate(() => document.querySelector("main")!.textContent!.length);
    assert.ok(shown < 200_000, `the page holds ${shown} characters of a 10 MB input`);
    for (const width of [390, 1280, 1920]) {
      await page.setViewportSize({ width, height: 900 });
      await screenshot(page, `job-big-payload-${width}`);
    }
    await page.getByRole("tab", { name: /Logs/ }).click();
    await page.getByText("line 9999", { exact: true }).waitFor();
    await page.getByLabel("Level").selectOption("error");
    await page.getByText("line 0", { exact: true }).waitFor();
    assert.equal(await page.locator("table.logs tbody tr").count(), 100);
    await page.locator("details.log-meta summary").first().click();
    await page.getByRole("tree", { name: "Log meta" }).waitFor();
  });
});

browserTest(
  "a value 5,000 levels deep renders as a lazy tree, opened a level at a time",
  async () => {
    await withBoard({}, async ({ page, root, redis }) => {
      const id = await withClient(redis.url, writeDeepJob);
      await page.goto(`${root}jobs/${id}`);
      await page.getByRole("tab", { name: /Data/ }).waitFor();
      await page.getByRole("tab", { name: /Data/ }).click();
      const tree = page.getByRole("tree", { name: "Job data" });
      await tree.waitFor();
      // Only what is open exists: the root and its one child.
      assert.equal(await tree.getByRole("treeitem").count(), 2);
      await tree.getByRole("button").last().click();
      assert.equal(await tree.getByRole("treeitem").count(), 3);
      const text = await tree.textContent();
      assert.ok(text!.length < 200, `the tree holds ${text!.length} characters`);
      for (const width of [390, 1280, 1920]) {
        await page.setViewportSize({ width, height: 900 });
        await screenshot(page, `job-tree-${width}`);
      }
    });
  },
);

browserTest(
  "? lists the shortcuts; overview counters and task cells open the matching tab",
  async () => {
    await withBoard({}, async ({ page, root }) => {
      await page.goto(root);
      await page.locator(".task-table").waitFor();
      for (const width of [390, 1280, 1920]) {
        await page.setViewportSize({ width, height: 900 });
        await screenshot(page, `overview-clickable-${width}`);
      }
      await page.keyboard.press("?");
      const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
      await help.getByText("Find a job by ID").waitFor();
      await help.getByText("Open Overview").waitFor();
      for (const width of [390, 1280, 1920]) {
        await page.setViewportSize({ width, height: 900 });
        await screenshot(page, `shortcuts-${width}`);
      }
      await page.keyboard.press("Escape");
      await help.waitFor({ state: "hidden" });

      await page.locator(".task-table a.cell-link[href='tasks/send-email?state=completed']")
        .click();
      await page.waitForURL(/\/tasks\/send-email\?state=completed$/);
      await page.getByRole("tab", { name: /^completed/i, selected: true }).waitFor();

      await page.goto(root);
      await page.locator(".counter-link", { hasText: "delayed" }).click();
      await page.waitForURL(/\/tasks\?state=delayed$/);
      await page.getByRole("heading", { name: "Tasks by delayed jobs" }).waitFor();
      await page.goto(root);
      await page.locator(".counter-link", { hasText: "failed" }).click();
      await page.waitForURL(/\/dlq$/);
    });
  },
);
