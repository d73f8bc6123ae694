/**
 * The pager of a task's job list in a real browser, on Redis: first, last,
 * a page number typed in, the page size, all in the URL (a shared link
 * opens the same page in a fresh browser) and the size remembered for the
 * board's next list.
 */

import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { browserTest, sharedBrowser, withBoard } from "./harness.ts";
import { taskKeys } from "../../src/source/wire/keys.ts";
import { connectClient } from "../helpers/redis_server.ts";
import { writeFailedJobs } from "../helpers/wire_writer.ts";

const JOBS = 620;

/** Makes send-email's failed jobs `count` new ones; their ids, newest first. */
async function failedJobs(url: string, count: number): Promise<string[]> {
  const client = await connectClient(url);
  try {
    const failed = taskKeys("send-email").failed;
    await client.sendCommand(["DEL", failed]);
    await writeFailedJobs(client, "send-email", count);
    return await client.sendCommand(["ZREVRANGE", failed, "0", "-1"]) as string[];
  } finally {
    await client.close();
  }
}

/** Waits until the table's first row is job `id`: the page's answer is in. */
async function startsWith(page: Page, id: string): Promise<void> {
  await page.locator(`.job-table tbody tr:first-child[data-job="${id}"]`).waitFor();
}

/** The ids of the listed rows, top to bottom. */
async function listed(page: Page): Promise<string[]> {
  return await page.locator(".job-table tbody tr").evaluateAll((rows) =>
    rows.map((row) => row.getAttribute("data-job") ?? "")
  );
}

browserTest("first, last, a typed page and the size move the list and its URL", async () => {
  await withBoard({}, async ({ page, root, redis }) => {
    const newestFirst = await failedJobs(redis.url, JOBS);
    /** The id of the `n`th newest failed job (from 1). */
    const nth = (n: number) => newestFirst[n - 1];
    await page.goto(`${root}tasks/send-email?state=failed`);
    const pager = page.getByRole("navigation", { name: "Pages" });
    await pager.getByText("of 13", { exact: true }).waitFor();
    assert.deepEqual((await listed(page)).slice(0, 2), [nth(1), nth(2)]);

    await pager.getByRole("button", { name: "Last" }).click();
    await page.waitForURL(/page=13&size=50$/);
    await pager.getByText("601–620 of 620").waitFor();
    await startsWith(page, nth(601));
    assert.deepEqual(await listed(page), Array.from({ length: 20 }, (_, i) => nth(601 + i)));

    const number = pager.getByRole("spinbutton", { name: "Page number" });
    await number.fill("7");
    await number.press("Enter");
    await page.waitForURL(/page=7&size=50$/);
    await pager.getByText("301–350 of 620").waitFor();
    await startsWith(page, nth(301));
    assert.equal((await listed(page))[0], nth(301));

    // A bigger page keeps the first row of this one on screen: row 301 is on page 2 of 250.
    await pager.getByRole("combobox", { name: "Page size" }).selectOption("250");
    await page.waitForURL(/page=2&size=250$/);
    await pager.getByText("251–500 of 620").waitFor();

    await pager.getByRole("button", { name: "First" }).click();
    await page.waitForURL(/state=failed&size=250$/);
    await pager.getByText("1–250 of 620").waitFor();

    // Remembered for this board: a list opened without a size uses it.
    await page.goto(`${root}tasks/send-email?state=failed`);
    await pager.getByText("1–250 of 620").waitFor();

    // A shared link opens the same page in another browser, which remembers nothing.
    const other = await (await sharedBrowser()).newContext();
    const shared = await other.newPage();
    await shared.goto(`${root}tasks/send-email?state=failed&page=3&size=25`);
    await shared.getByRole("navigation", { name: "Pages" }).getByText("51–75 of 620").waitFor();
    await startsWith(shared, nth(51));
    assert.equal((await listed(shared))[0], nth(51));
  });
});

browserTest("while the next page loads, the pager's label names the rows still shown", async () => {
  await withBoard({}, async ({ page, root, redis }) => {
    const newestFirst = await failedJobs(redis.url, 60);
    await page.goto(`${root}tasks/send-email?state=failed&size=50`);
    const pager = page.getByRole("navigation", { name: "Pages" });
    await pager.getByText("1–50 of 60").waitFor();
    await startsWith(page, newestFirst[0]);

    // The second page's answer is held until the test has looked at the list.
    let release = () => {};
    const released = new Promise<void>((resolve) => release = resolve);
    const secondPage = (url: URL) =>
      url.pathname.endsWith("/api/tasks/send-email/jobs") &&
      url.searchParams.get("offset") === "50";
    await page.route(secondPage, async (route) => {
      await released;
      await route.continue();
    });
    const asked = page.waitForRequest((request) => secondPage(new URL(request.url())));
    await pager.getByRole("button", { name: "Next" }).click();
    await page.waitForURL(/page=2&size=50$/);
    await asked;
    // The list marked busy once the page is asked for (a list blanked to "Loading…", as it was,
    // fails on the label below rather than by a timeout here).
    await page.locator(".paged-list[aria-busy=true], .task-jobs .empty[role=status]").waitFor();
    const label = () => pager.locator(".muted").allTextContents();
    assert.deepEqual(await label(), ["1–50 of 60"]);
    assert.deepEqual((await listed(page)).slice(0, 2), newestFirst.slice(0, 2));

    release();
    await startsWith(page, newestFirst[50]);
    await page.locator(".paged-list[aria-busy=false]").waitFor();
    assert.deepEqual(await label(), ["51–60 of 60"]);
    assert.deepEqual(await listed(page), newestFirst.slice(50));
  });
});

browserTest(
  "a workflows link past the last page opens the last page, not an empty table",
  async () => {
    await withBoard({}, async ({ page, root }) => {
      await page.goto(`${root}workflows?page=9&size=25`);
      await page.waitForURL((url) => !url.search.includes("page=9"));
      await page.locator(".wf-table tbody tr").first().waitFor();
      assert.doesNotMatch(await page.locator("#wf-state-panel").innerText(), /Page\s+9/);
    });
  },
);
