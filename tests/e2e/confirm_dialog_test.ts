/**
 * Destructive confirmations in a real browser, on real Redis holding the
 * taskora fixture: they open on the safe button, which names what it keeps,
 * so Enter backs out.
 */

import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { browserTest, withBoard } from "./harness.ts";

/** The fixture's delayed send-email job. */
const DELAYED_JOB = "5a69f8cc-4a71-423d-8cc7-3680d5198d0f";

/** The accessible name of the focused element. */
function focusedButton(page: Page): Promise<string | undefined> {
  return page.evaluate(() => {
    const el = document.activeElement;
    return el?.tagName === "BUTTON" ? el.textContent?.trim() : undefined;
  });
}

browserTest("cancelling a job asks with Keep job focused; Enter keeps the job", async () => {
  await withBoard({}, async ({ page, root }) => {
    await page.goto(`${root}jobs/${DELAYED_JOB}`);
    const badge = page.locator(".detail-head .state-badge");
    await badge.getByText("delayed").waitFor();

    await page.getByRole("button", { name: "Cancel", exact: true }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByText("Cancel this job?").waitFor();
    assert.deepEqual(
      await dialog.getByRole("button").allTextContents(),
      ["Keep job", "Cancel job"],
    );
    assert.equal(await focusedButton(page), "Keep job");

    await page.keyboard.press("Enter");
    await dialog.waitFor({ state: "hidden" });
    const job = await (await fetch(`${root}api/jobs/${DELAYED_JOB}`)).json();
    assert.equal(job.state, "delayed", "Enter on the focused button kept the job");
  });
});

browserTest("deleting a schedule asks with Keep schedule focused", async () => {
  await withBoard({}, async ({ page, root }) => {
    await page.goto(`${root}schedules`);
    await page.locator("tbody tr", { hasText: "weekly-cleanup" }).getByRole("button", {
      name: "Delete",
    }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByText("Delete schedule weekly-cleanup?").waitFor();
    assert.equal(await focusedButton(page), "Keep schedule");

    // A non-destructive confirmation still starts on its action.
    await page.keyboard.press("Escape");
    await page.locator("tbody tr", { hasText: "nightly-report" }).getByRole("button", {
      name: "Run now",
    }).click();
    await dialog.getByText("Run nightly-report now?").waitFor();
    assert.equal(await focusedButton(page), "Run now");
  });
});
