/**
 * Run again and Edit and retry in a real browser, on real Redis holding the
 * taskora fixture: the editor checks the JSON as it is typed, the change is
 * shown as a line diff before it is written, and Run again opens the new
 * job. Neither is offered on a read-only board.
 */

import assert from "node:assert/strict";
import { browserTest, screenshot, withBoard } from "./harness.ts";

const FAILED_JOB = "7deea1e0-af8c-4c24-bb84-c89069ee4b0a";
const COMPLETED_JOB = "d2d954a9-6cc5-4bb4-b341-01e347a69342";

browserTest(
  "Edit and retry: checked as typed, the diff before the write, then written",
  async () => {
    await withBoard({}, async ({ page, root }) => {
      await page.goto(`${root}jobs/${FAILED_JOB}`);
      await page.locator(".detail-head .state-badge").getByText("failed").waitFor();
      await page.setViewportSize({ width: 390, height: 860 });
      await screenshot(page, "job-actions-390");
      await page.setViewportSize({ width: 1360, height: 860 });
      await page.getByRole("button", { name: "Edit and retry" }).click();
      const dialog = page.getByRole("dialog");
      const editor = dialog.getByRole("textbox");
      const original = await editor.inputValue();
      assert.deepEqual(JSON.parse(original), {
        to: "u0@x.io",
        password: "hunter2",
        mode: "fail",
        i: 0,
      });
      assert.match(original, /\n {2}"to": "u0@x.io",\n/, "pretty-printed, two spaces");
      const review = dialog.getByRole("button", { name: "Review changes" });
      assert.equal(await review.isDisabled(), true, "nothing changed yet");

      await editor.fill(original.replace('"mode": "fail",', '"mode": "fail"'));
      await dialog.getByText(/Not valid JSON/).waitFor();
      assert.equal(await review.isDisabled(), true);
      assert.equal(await editor.getAttribute("aria-invalid"), "true");

      await editor.fill(original.replace('"mode": "fail"', '"mode": "ok",\n  "note": "fixed"'));
      await dialog.getByText("Valid JSON").waitFor();
      await screenshot(page, "edit-retry-editor-1360");
      await review.click();
      const diff = dialog.getByLabel("Changes to the job's data");
      await diff.waitFor();
      assert.deepEqual(await diff.locator(".diff-removed").allTextContents(), [
        '-   "mode": "fail",\n',
      ]);
      assert.deepEqual(await diff.locator(".diff-added").allTextContents(), [
        '+   "mode": "ok",\n',
        '+   "note": "fixed",\n',
      ]);
      await dialog.getByText("2 lines added, 1 removed").waitFor();
      for (const width of [390, 1280, 1920]) {
        await page.setViewportSize({ width, height: 860 });
        await screenshot(page, `edit-retry-diff-${width}`);
      }

      await dialog.getByRole("button", { name: "Retry with new data" }).click();
      await dialog.waitFor({ state: "hidden" });
      await page.locator(".detail-head .state-badge").getByText("waiting").waitFor();
      const job = await (await fetch(`${root}api/jobs/${FAILED_JOB}`)).json();
      assert.deepEqual(job.data, {
        to: "u0@x.io",
        password: "hunter2",
        mode: "ok",
        note: "fixed",
        i: 0,
      });
    });
  },
);

browserTest("Run again asks first, then opens the new job", async () => {
  await withBoard({}, async ({ page, root }) => {
    await page.goto(`${root}jobs/${COMPLETED_JOB}`);
    await page.locator(".detail-head .state-badge").getByText("completed").waitFor();
    assert.equal(await page.getByRole("button", { name: "Edit and retry" }).count(), 0);
    await page.getByRole("button", { name: "Run again" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByText("Run this job again?").waitFor();
    await dialog.getByRole("button", { name: "Run again" }).click();
    await page.waitForURL((url) =>
      url.pathname.includes("/jobs/") && !url.pathname.endsWith(COMPLETED_JOB)
    );
    const newId = new URL(page.url()).pathname.split("/").at(-1)!;
    await page.getByRole("heading", { name: newId }).waitFor();
    // A board on a URL cannot know the task's ttl: it says the new job has none.
    await page.locator(".toast", { hasText: "with no TTL: it never expires" }).waitFor();
    const [fresh, original] = await Promise.all(
      [newId, COMPLETED_JOB].map(async (id) => await (await fetch(`${root}api/jobs/${id}`)).json()),
    );
    assert.equal(fresh.task, "send-email");
    assert.deepEqual(fresh.data, original.data);
  });
});

browserTest("a read-only board offers neither Run again nor Edit and retry", async () => {
  await withBoard({ readOnly: true }, async ({ page, root }) => {
    await page.goto(`${root}jobs/${FAILED_JOB}`);
    await page.locator(".detail-head .state-badge").getByText("failed").waitFor();
    for (const name of ["Run again", "Edit and retry", "Retry"]) {
      assert.equal(await page.getByRole("button", { name, exact: true }).count(), 0, name);
    }
  });
});
