/**
 * "Find jobs" on a task's state tab, in a real browser on real Redis: the
 * form puts the filter in the URL, the matches stream in with the count of
 * jobs scanned, "Continue" shows the next page by its cursor, and the URL
 * alone reproduces the search.
 */

import assert from "node:assert/strict";
import { connectClient } from "../helpers/redis_server.ts";
import { jobCommands } from "../helpers/wire_writer.ts";
import { browserTest, screenshot, screenshotView, withBoard } from "./harness.ts";

/** Completed send-email jobs: user 3 every tenth, so 150 of them. */
const JOBS = 1_500;

browserTest(
  "a payload search streams its matches and continues by the cursor in the URL",
  async () => {
    await withBoard({ redact: ["password"] }, async ({ page, root, redis }) => {
      const client = await connectClient(redis.url);
      const now = Date.now();
      const commands = [];
      for (let i = 0; i < JOBS; i++) {
        commands.push(
          ...jobCommands({
            task: "send-email",
            id: `find-${String(i).padStart(4, "0")}`,
            state: "completed",
            data: { user: { id: i % 10 }, password: "hunter2" },
            result: { sent: true },
            finishedOn: now - i * 1000,
            ts: now - i * 1000 - 500,
          }).commands,
        );
      }
      await Promise.all(commands.map((args) => client.sendCommand(args)));
      await client.close();

      await page.goto(`${root}tasks/send-email?state=completed`);
      const form = page.getByRole("search", { name: "Find jobs" });
      await form.getByLabel("Look in").selectOption("data");
      await form.getByLabel("Match", { exact: true }).selectOption("path");
      await form.getByLabel("Key path", { exact: true }).fill("user.id");
      await form.getByLabel("Value", { exact: true }).fill("3");
      await form.getByRole("button", { name: "Find" }).click();

      const status = page.locator(".search-status");
      await status.getByRole("button", { name: "Continue" }).waitFor();
      assert.match(await status.textContent() ?? "", /Scanned [\d,]+ of [\d,]+ · 50 found/);
      const url = new URL(page.url());
      assert.equal(url.searchParams.get("field"), "data");
      assert.equal(url.searchParams.get("path"), "user.id");
      assert.equal(url.searchParams.get("value"), "3");
      const rows = page.locator(".job-table tbody tr");
      assert.equal(await rows.count(), 50);
      assert.equal(await rows.first().getAttribute("data-job"), "find-0003");

      for (const width of [390, 1280, 1920]) {
        await page.setViewportSize({ width, height: 900 });
        await screenshot(page, `find-jobs-${width}`);
        // The form and the first matches, as the viewport shows them.
        await form.scrollIntoViewIfNeeded();
        await screenshotView(page, `find-jobs-${width}-view`);
      }
      await page.setViewportSize({ width: 1360, height: 860 });

      await status.getByRole("button", { name: "Continue" }).click();
      await page.waitForURL(/cursor=/);
      await page.locator(".job-table tbody tr[data-job='find-0503']").waitFor();
      assert.equal(await rows.first().getAttribute("data-job"), "find-0503");
      // Matches stream in: count them once the search has paused at the page's end.
      await rows.nth(49).waitFor();
      await status.getByRole("button", { name: "Continue" }).waitFor();
      assert.equal(await rows.count(), 50, "one page of matches at a time");

      // The link alone gives the same page.
      const link = page.url();
      await page.goto(`${root}tasks/send-email?state=waiting`);
      await page.goto(link);
      await page.locator(".job-table tbody tr[data-job='find-0503']").waitFor();
      assert.equal(
        await page.getByRole("search").getByLabel("Key path", { exact: true }).inputValue(),
        "user.id",
      );
    });
  },
);

browserTest("a key path through a redacted key is refused, by name", async () => {
  await withBoard({ redact: ["password"] }, async ({ page, root }) => {
    await page.goto(`${root}tasks/send-email?state=completed&field=data&path=password&value=x`);
    const alert = page.getByRole("alert").filter({ hasText: "redacted key" });
    await alert.waitFor();
    assert.match(await alert.textContent() ?? "", /"password" is a redacted key/);
  });
});
