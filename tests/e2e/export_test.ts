/**
 * Export links in a real browser, on Redis: a task's job list and a DLQ
 * group offer CSV and NDJSON of exactly what they list, and the file the
 * link serves is that list.
 */

import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { waitFor } from "../helpers/wait_for.ts";
import { browserTest, screenshot, withBoard } from "./harness.ts";

/** The body the link serves, fetched by the page (same origin, same cookies). */
async function download(page: Page, href: string): Promise<string> {
  return await page.evaluate(async (href) => await (await fetch(href)).text(), href);
}

browserTest("a task's failed list and a DLQ group export as CSV and NDJSON", async () => {
  await withBoard({}, async ({ page, root }) => {
    await page.goto(`${root}tasks/send-email?state=failed`);
    const exports = page.getByRole("group", { name: "Export the failed jobs of send-email" });
    const csv = exports.getByRole("link", { name: "CSV" });
    await csv.waitFor();
    const href = await csv.getAttribute("href");
    assert.equal(href, "api/tasks/send-email/jobs/export?state=failed&format=csv");
    const rows = (await download(page, href!)).trim().split("\r\n");
    assert.equal(rows[0].split(",")[0], "id");
    assert.equal(rows.length, 1 + 5);
    await screenshot(page, "export-task-1280");

    await page.goto(`${root}dlq`);
    await page.locator(".dlq-disclosure").first().click();
    const group = page.getByRole("group", { name: "Export this group's failed jobs" });
    const ndjson = await group.getByRole("link", { name: "NDJSON" }).getAttribute("href");
    assert.match(ndjson!, /^api\/dlq\/export\?pattern=.+&format=ndjson$/);
    const lines = (await download(page, ndjson!)).trim().split("\n").map((l) => JSON.parse(l));
    assert.ok(lines.length >= 1);
    assert.ok(lines.every((job) => job.state === "failed"));
  });
});

browserTest("a filtered tab exports the search's matches, its filter in the file", async () => {
  await withBoard({}, async ({ page, root }) => {
    await page.goto(`${root}tasks/send-email?state=failed&field=error&contains=SMTP`);
    const exports = page.getByRole("group", {
      name: "Export the failed jobs of send-email that match the filter",
    });
    const csv = exports.getByRole("link", { name: "CSV" });
    await csv.waitFor();
    const href = await csv.getAttribute("href");
    assert.equal(
      href,
      "api/tasks/send-email/jobs/search/export?field=error&contains=SMTP&state=failed&format=csv",
    );
    const rows = (await download(page, href!)).trim().split("\r\n");
    assert.equal(rows[0], "# search: state=failed field=error contains=SMTP");
    assert.equal(rows[1].split(",")[0], "id");
    assert.ok(rows.length > 2, "the file holds the matches");
    // The search's rows may still be on their way when the file is in: counted once they are in,
    // a loaded CI machine counted none.
    const table = page.locator(".job-table tbody tr");
    await waitFor(async () => await table.count() > 0, { what: "the search's rows" });
    assert.equal(rows.length - 2, await table.count(), "the file holds the rows the search shows");
    await screenshot(page, "export-search-1280");
  });
});

browserTest("the links name the board's own cap, and the file stops there", async () => {
  await withBoard({ exportCap: 3 }, async ({ page, root }) => {
    await page.goto(`${root}tasks/send-email?state=failed`);
    const csv = page.getByRole("group", { name: "Export the failed jobs of send-email" })
      .getByRole("link", { name: "CSV" });
    await csv.waitFor();
    assert.match((await csv.getAttribute("title"))!, /at most 3 rows/);
    const rows = (await download(page, (await csv.getAttribute("href"))!)).trim().split("\r\n");
    assert.equal(rows.length, 1 + 3 + 1, "the header, 3 of the 5 failed jobs, the line saying so");
  });
});
