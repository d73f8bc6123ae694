/**
 * The job page's Logs and Attempts tabs are styled like the rest of the
 * board, in a real browser on real Redis holding the taskora fixture: the
 * Logs tab's Level and Attempt filters are the board's select boxes with
 * their labels beside them, and the Attempts tab is inset from the card's
 * edges like the other tabs. `7deea1e0…` is a failed `send-email` job.
 */

import assert from "node:assert/strict";
import type { Locator } from "playwright-core";
import { browserTest, withBoard } from "./harness.ts";

const FAILED_EMAIL = "7deea1e0-af8c-4c24-bb84-c89069ee4b0a";

/** The computed style of `locator`'s element, as named properties. */
function styleOf(locator: Locator, names: string[]): Promise<Record<string, string>> {
  return locator.evaluate((el, names) => {
    const style = getComputedStyle(el);
    return Object.fromEntries(names.map((name) => [name, style.getPropertyValue(name)]));
  }, names);
}

/** The box of `locator`'s element (it is shown). */
async function box(locator: Locator): Promise<{ x: number; y: number; height: number }> {
  return (await locator.boundingBox())!;
}

const SELECT_STYLE = ["border-radius", "padding-left", "font-size", "background-color"];

browserTest("the Logs tab's Level and Attempt filters are the board's select boxes", async () => {
  await withBoard({}, async ({ page, root }) => {
    // The board's select box and field label, as the task page's job filter shows them.
    await page.goto(`${root}tasks/send-email?state=failed`);
    const lookIn = page.getByRole("combobox", { name: "Look in" });
    await lookIn.waitFor();
    const select = await styleOf(lookIn, SELECT_STYLE);
    const label = await styleOf(page.locator(".field-label").first(), ["color", "font-size"]);

    await page.goto(`${root}jobs/${FAILED_EMAIL}`);
    await page.getByRole("tab", { name: /Logs/ }).click();
    for (const name of ["Level", "Attempt"]) {
      const filter = page.getByRole("combobox", { name });
      await filter.waitFor();
      assert.deepEqual(await styleOf(filter, SELECT_STYLE), select, `${name} is a select box`);
      const text = page.locator(".log-filters label", { hasText: name }).getByText(name, {
        exact: true,
      });
      assert.deepEqual(await styleOf(text, ["color", "font-size"]), label, `${name}'s label`);
    }
  });
});

browserTest("the Attempts tab is inset from the card's edges", async () => {
  await withBoard({}, async ({ page, root }) => {
    await page.goto(`${root}jobs/${FAILED_EMAIL}`);
    await page.getByRole("tab", { name: "Attempts" }).click();
    const list = page.locator("#job-panel .attempts");
    await list.waitFor();
    const attempts = await box(list);
    const panel = await box(page.locator("#job-panel"));
    const tabs = await box(page.getByRole("tablist", { name: "Job details" }));
    const left = attempts.x - panel.x;
    const below = attempts.y - (tabs.y + tabs.height);
    assert.ok(left >= 12, `the attempts start ${left} px from the card's left edge`);
    assert.ok(below >= 12, `the attempts start ${below} px below the tabs`);
  });
});
