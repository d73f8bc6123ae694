/**
 * Schedules and time zones in a real browser, on real Redis holding the
 * taskora fixture (`nightly-report` runs `0 3 * * *`): a bad zone is marked
 * on the time zone field, by the API error's `param`.
 */

import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { browserTest, withBoard } from "./harness.ts";

function row(page: Page, text: string) {
  return page.locator("tbody tr", { hasText: text }).first();
}

browserTest("a bad time zone marks the time zone field, not the cron field", async () => {
  await withBoard({}, async ({ page, root }) => {
    await page.goto(`${root}schedules`);
    const nightly = row(page, "nightly-report");
    await nightly.getByRole("button", { name: "Edit" }).click();
    const form = page.getByRole("form", { name: "Edit schedule nightly-report" });
    const cron = form.getByRole("textbox", { name: "Cron" });
    const zone = form.getByRole("combobox", { name: "Time zone" });
    // Both change, so the request carries both: only the answer can tell which is wrong.
    await cron.fill("0 4 * * *");
    await zone.fill("Mars/Base");
    await form.getByRole("button", { name: "Save changes" }).click();

    await form.locator(".field-error", { hasText: /^Invalid timezone: "Mars\/Base"/ }).waitFor();
    assert.equal(await zone.getAttribute("aria-invalid"), "true");
    assert.equal(await cron.getAttribute("aria-invalid"), null, "the cron field is not blamed");
    assert.equal(await zone.evaluate((el) => el === document.activeElement), true);
  });
});
