/**
 * Bulk actions in a real browser on a real Redis: checkboxes and
 * shift-click ranges, the page's box and "all N in this state", the
 * dry-run count in the confirmation, the operation's progress and its
 * cancel, and a per-row action. Screenshots at 390, 1280 and 1920 px.
 */

import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { pausableSource } from "../helpers/pause_after_entry.ts";
import { connectClient, type TestRedis } from "../helpers/redis_server.ts";
import { jobCommands } from "../helpers/wire_writer.ts";
import { browserTest, screenshotView, withBoard } from "./harness.ts";

const TASK = "bulk-demo";
const FAILED = 5000;
const FAILED_TEXT = "5,000";

const rowChecks = (page: Page) => page.locator(".job-table tbody .row-check");
const bar = (page: Page) => page.getByRole("region", { name: "Selected jobs" });
const dialog = (page: Page) => page.getByRole("dialog");

async function seed(url: string): Promise<Awaited<ReturnType<typeof connectClient>>> {
  const client = await connectClient(url);
  const now = Date.now();
  const writes: Promise<unknown>[] = [];
  for (let i = 0; i < FAILED; i++) {
    const ts = now - (FAILED - i) * 100;
    const { commands } = jobCommands({
      task: TASK,
      id: `job-${String(i).padStart(4, "0")}`,
      state: "failed",
      ts,
      data: { i },
      error: `Upstream 503 (${i})`,
      finishedOn: ts + 10,
    });
    for (const command of commands) writes.push(client.sendCommand(command));
  }
  await Promise.all(writes);
  return client;
}

/** Viewport screenshots at 390, 1280 and 1920 px, the jobs card scrolled to the top. */
async function shots(page: Page, name: string): Promise<void> {
  for (const width of [390, 1280, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    await page.locator(".task-jobs").evaluate((card) => card.scrollIntoView());
    await screenshotView(page, `${name}-${width}`);
  }
  await page.setViewportSize({ width: 1360, height: 860 });
}

browserTest(
  "bulk: shift-click, all N in the state, the counted confirmation, progress and cancel",
  async () => {
    let pauseBeforeStep = (_ms: number) => {};
    const source = (redis: TestRedis) => {
      const pausable = pausableSource(redis.url);
      pauseBeforeStep = (ms) => pausable.pauseBeforeStep(ms);
      return pausable.source;
    };
    await withBoard({ source }, async ({ page, root, redis }) => {
      const client = await seed(redis.url);
      try {
        await page.goto(`${root}tasks/${TASK}?state=failed`);
        await rowChecks(page).nth(49).waitFor();

        // A click, then a shift-click: the range between them.
        await rowChecks(page).nth(1).click();
        await rowChecks(page).nth(5).click({ modifiers: ["Shift"] });
        await bar(page).getByText("5 selected").waitFor();
        for (let i = 0; i < 8; i++) {
          assert.equal(await rowChecks(page).nth(i).isChecked(), i >= 1 && i <= 5, `row ${i}`);
        }
        // A shift-click on a checked row clears the range from the last click (row 5) to it.
        await rowChecks(page).nth(3).click({ modifiers: ["Shift"] });
        await bar(page).getByText("2 selected").waitFor();
        assert.equal(await rowChecks(page).nth(2).isChecked(), true);
        assert.equal(await rowChecks(page).nth(3).isChecked(), false);
        await shots(page, "bulk-selected");

        // The page's box, then every job of the state.
        await page.getByRole("checkbox", { name: "Select all jobs on this page" }).click();
        await bar(page).getByText("50 selected").waitFor();
        await bar(page).getByRole("button", { name: `Select all ${FAILED_TEXT} failed jobs` })
          .click();
        await bar(page).getByText(`All ${FAILED_TEXT} failed jobs selected`).waitFor();

        // The confirmation says the count the server gave (a dry run).
        await bar(page).getByRole("button", { name: "Retry", exact: true }).click();
        await dialog(page).getByText(`Retry ${FAILED_TEXT} jobs?`).waitFor();
        await dialog(page).getByText(`${FAILED_TEXT} jobs of ${TASK} will be sent back`).waitFor();
        await shots(page, "bulk-confirm");

        // Writes paused for a while (under the board's 2 s reply timeout) just before the
        // operation's first step, once its start (audit entry, record) is answered: the step
        // waits, so Cancel lands while it runs; whenever it lands, the step under way ends and
        // no other begins.
        pauseBeforeStep(1200);
        await dialog(page).getByRole("button", { name: `Retry ${FAILED_TEXT} jobs` }).click();
        const progress = page.locator(".bulk-progress");
        await progress.getByText(new RegExp(`of ${FAILED_TEXT} done`)).waitFor();
        await progress.getByRole("button", { name: "Cancel operation" }).click();
        // The viewport only: quick, while the step may still wait.
        await screenshotView(page, "bulk-running");
        const cancelled = progress.getByText(/^Cancelled: [\d,]+ jobs retried/);
        await cancelled.waitFor();
        const done = Number(
          (await cancelled.textContent())!.match(/([\d,]+) jobs/)![1].replace(/,/g, ""),
        );
        assert.ok(done > 0 && done < FAILED && done % 100 === 0, `${done}: whole steps, not all`);
        assert.equal(await client.zCard(`taskora:{${TASK}}:failed`), FAILED - done);
        await shots(page, "bulk-cancelled");
        await progress.getByRole("button", { name: "Dismiss" }).click();

        // A per-row action (its buttons show on wide screens and phones): one job, counted and
        // confirmed the same way.
        await page.setViewportSize({ width: 1920, height: 900 });
        const first = page.locator(".job-table tbody tr").first();
        const id = await first.getAttribute("data-job");
        await first.getByRole("button", { name: `Delete job ${id}` }).click();
        await dialog(page).getByText("Delete 1 job?").waitFor();
        await dialog(page).getByRole("button", { name: "Delete 1 job" }).click();
        await progress.getByText("1 job deleted").waitFor();
        assert.equal(await client.exists(`taskora:{${TASK}}:${id}`), 0);
      } finally {
        await client.sendCommand(["CLIENT", "UNPAUSE"]).catch(() => {});
        await client.close();
      }
    });
  },
);

browserTest(
  "bulk on a filter: every job matching it counted, confirmed and retried; a row's menu at mid width",
  async () => {
    await withBoard({}, async ({ page, root, redis }) => {
      const client = await seed(redis.url);
      try {
        // "(42" is in the errors of jobs 42, 420-429 and 4200-4299: 111, more than a page shows.
        const matching = 111;
        await page.goto(`${root}tasks/${TASK}?state=failed&field=error&contains=(42`);
        await page.getByText(/searched them all|Continue/).first().waitFor();
        const region = page.getByRole("region", { name: "Jobs matching the filter" });
        await region.getByText("Every failed job matching this filter").waitFor();

        // Matches can be checked as a list's rows can.
        await rowChecks(page).first().click();
        await bar(page).getByText("1 selected").waitFor();
        await bar(page).getByRole("button", { name: "Clear" }).click();

        await region.getByRole("button", { name: "Retry all matching" }).click();
        await dialog(page).getByText(`Retry ${matching} jobs?`).waitFor();
        // The count is in: the bar no longer says it is counting.
        await region.getByText("Every failed job matching this filter").waitFor();
        await shots(page, "bulk-matching-confirm");
        await dialog(page).getByRole("button", { name: `Retry ${matching} jobs` }).click();
        const progress = page.locator(".bulk-progress");
        await progress.getByText(`${matching} jobs retried`).waitFor();
        // Which board process ran it: host, process id, 4 hex digits.
        await progress.getByText(new RegExp(`^Run by .+:${Deno.pid}:[0-9a-f]{4}$`)).waitFor();
        assert.equal(await client.zCard(`taskora:{${TASK}}:failed`), FAILED - matching);
        assert.equal(await client.hGet(`taskora:{${TASK}}:job-4250`, "state"), "waiting");
        assert.equal(await client.hGet(`taskora:{${TASK}}:job-4300`, "state"), "failed");
        // The search ran again once the operation ended: nothing matches now.
        await page.locator("p.empty", { hasText: "No failed jobs match" }).waitFor();
        await shots(page, "bulk-matching-done");
        await progress.getByRole("button", { name: "Dismiss" }).click();

        // At 1280 px a row's actions open from its "⋯" menu.
        await page.goto(`${root}tasks/${TASK}?state=failed`);
        await page.setViewportSize({ width: 1280, height: 900 });
        const first = page.locator(".job-table tbody tr").first();
        const id = await first.getAttribute("data-job");
        assert.equal(await first.getByRole("button", { name: `Delete job ${id}` }).count(), 0);
        await first.getByRole("button", { name: `Actions on job ${id}` }).click();
        await screenshotView(page, "bulk-row-menu-1280");
        await first.getByRole("menuitem", { name: `Delete job ${id}` }).click();
        await dialog(page).getByRole("button", { name: "Delete 1 job" }).click();
        await progress.getByText("1 job deleted").waitFor();
        assert.equal(await client.exists(`taskora:{${TASK}}:${id}`), 0);
      } finally {
        await client.close();
      }
    });
  },
);

browserTest(
  "on a phone the page's select-all box shows above the cards and checks them",
  async () => {
    await withBoard({}, async ({ page, root }) => {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`${root}tasks/send-email?state=failed`);
      await page.locator(".job-table tbody tr").first().waitFor();
      const all = page.getByRole("checkbox", { name: "Select all jobs on this page" });
      // Clicked where it shows, as a finger would: not hidden in the clipped header, under a card.
      await all.check();
      await bar(page).getByText("5 selected").waitFor();
      assert.equal(await page.locator(".job-table tbody .row-check:checked").count(), 5);
    });
  },
);
