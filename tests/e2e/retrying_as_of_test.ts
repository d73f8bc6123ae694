/**
 * The retrying count says how old it is when the board's kept split is not
 * current: on the overview's task table and on the task page's tab. The
 * answers are edited on the way to the browser (as a board whose split was
 * last counted 3 minutes ago, or never, would send them), and the event
 * stream is refused so the answers are what the page shows.
 */

import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { browserTest, screenshot, withBoard } from "./harness.ts";

/** Serves the board's answers with `retryingAsOf` 3 minutes old for send-email, null for resize-image. */
async function ageTheSplit(page: Page): Promise<void> {
  const aged = (name: string) =>
    name === "send-email" ? Date.now() - 180_000 : name === "resize-image" ? null : Date.now();
  await page.route("**/api/events**", (route) => route.abort());
  await page.route("**/api/overview*", async (route) => {
    const response = await route.fetch();
    const body = await response.json();
    for (const task of body.tasks) task.retryingAsOf = aged(task.name);
    await route.fulfill({ response, json: body });
  });
  await page.route("**/api/tasks/*/stats", async (route) => {
    const response = await route.fetch();
    const body = await response.json();
    await route.fulfill({ response, json: { ...body, retryingAsOf: aged(body.task) } });
  });
}

browserTest(
  "the retrying count says 'as of 3m … ago' or 'counting…' when not current",
  async () => {
    await withBoard({}, async ({ page, root }) => {
      await ageTheSplit(page);
      await page.goto(root);
      const cell = (task: string) =>
        page.getByRole("row", { name: new RegExp(`^${task} `) }).locator('[data-label="retrying"]');
      await cell("send-email").locator(".as-of").waitFor();
      assert.match(
        await cell("send-email").locator(".as-of").textContent() ?? "",
        /^as of 3m \d+s ago$/,
      );
      assert.equal(await cell("resize-image").locator(".as-of").textContent(), "counting…");
      assert.equal(await cell("transcode").locator(".as-of").count(), 0, "current: nothing said");
      for (const width of [390, 1280, 1920]) {
        await page.setViewportSize({ width, height: 900 });
        await screenshot(page, `retrying-as-of-overview-${width}`);
      }

      await page.goto(`${root}tasks/send-email?state=retrying`);
      const tab = page.getByRole("tab", { name: /retrying/ });
      await tab.locator(".as-of").waitFor();
      assert.match(await tab.locator(".as-of").textContent() ?? "", /^as of 3m \d+s ago$/);
      assert.match(await tab.locator(".as-of").getAttribute("title") ?? "", /^Counted at /);
      for (const width of [390, 1280, 1920]) {
        await page.setViewportSize({ width, height: 900 });
        await screenshot(page, `retrying-as-of-task-${width}`);
      }
    });
  },
);
