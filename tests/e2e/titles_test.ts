/**
 * Tab titles and not-found pages in a real browser, on real Redis holding
 * the taskora fixture: each tab names its job, task or workflow, and an
 * unknown workflow gets the same friendly page as an unknown job or task.
 */

import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { browserTest, withBoard } from "./harness.ts";

const FAILED_EMAIL = "7deea1e0-af8c-4c24-bb84-c89069ee4b0a";
const CHORD = "69fbb603-1f1d-4dd0-82d4-a6f176fcec3a";

/** Waits until the tab's title is `title`. */
async function titled(page: Page, title: string): Promise<void> {
  await page.waitForFunction((expected) => document.title === expected, title);
}

browserTest("each tab's title names its job, task or workflow", async () => {
  await withBoard({}, async ({ page, root }) => {
    await page.goto(`${root}jobs/${FAILED_EMAIL}`);
    await titled(page, "Job 7deea1e0 · send-email — queue-board");

    // In-app navigation renames the tab too.
    await page.getByRole("link", { name: "send-email" }).first().click();
    await titled(page, "send-email — queue-board");
    await page.getByRole("link", { name: "Overview" }).click();
    await titled(page, "Overview — queue-board");

    await page.goto(`${root}workflows/${CHORD}`);
    await titled(page, "Workflow 69fbb603 · chord(square, square, square → sum) — queue-board");
    await page.goto(`${root}schedules`);
    await titled(page, "Schedules — queue-board");
  });
});

browserTest("an unknown workflow gets the friendly not-found page", async () => {
  await withBoard({}, async ({ page, root }) => {
    await page.goto(`${root}workflows/no-such-workflow`);
    const card = page.locator(".empty-state");
    await card.getByRole("heading", { name: "No workflow with ID no-such-workflow" }).waitFor();
    assert.equal(await page.locator(".banner-error").count(), 0, "not an error");
    await card.getByRole("link", { name: "All workflows" }).click();
    await page.waitForURL("**/board/workflows");

    await page.goto(`${root}tasks/no-such-task`);
    await page.getByRole("heading", { name: "No task named no-such-task" }).waitFor();
  });
});
