/**
 * The task page as a new user meets it with the board on a Redis URL: the
 * job list comes right under the task's header (six cards of about 1,500 px
 * stood above it), and the two cards that cannot work without the taskora
 * App (the definition, dispatch) are one line saying so.
 */

import assert from "node:assert/strict";
import { browserTest, screenshot, withBoard } from "./harness.ts";

browserTest("the task page puts its job list first and hides what needs the App", async () => {
  await withBoard({}, async ({ page, root }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${root}tasks/send-email?state=failed`);
    await page.locator(".job-table tbody tr").first().waitFor();
    await page.locator(".card", { hasText: "Drain forecast" }).waitFor();
    const jobs = await page.locator(".task-jobs").boundingBox();
    assert.ok(jobs && jobs.y < 400, `the job list starts at ${jobs?.y} px, in the first screen`);
    for (const title of ["Definition", "Dispatch"]) {
      assert.equal(
        await page.locator(".card-title", { hasText: new RegExp(`^${title}$`) }).count(),
        0,
        `no ${title} card without the App`,
      );
    }
    await page.getByText("Not shown: this task's definition and a dispatch form.").waitFor();
    for (const width of [390, 1280, 1920]) {
      await page.setViewportSize({ width, height: 900 });
      await screenshot(page, `task-page-${width}`);
    }
  });
});
