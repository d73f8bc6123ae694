/**
 * Every view follows the store and the event stream, in a real browser on a
 * real Redis holding the taskora fixture: a Redis outage shows at once on
 * every open view, as does a board that does not answer, and each view
 * recovers at once when they return.
 *
 * Fixture facts used below: `send-email` holds 5 failed jobs (3 × "SMTP
 * timeout", 2 × "Mailbox full") and 10 completed ones.
 */

import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { screenshot, withBoard } from "./harness.ts";

/** Longest wait for something that should follow within a stats interval (3 s) or so. */
const FOLLOWS = { timeout: 10_000 };

const browserTest = (name: string, fn: () => Promise<void>) =>
  Deno.test({ name, sanitizeResources: false, sanitizeOps: false, fn });

/** The top bar's statement of what is live. */
const liveness = (page: Page, text: string | RegExp) => page.locator(".live", { hasText: text });

/** The note that the counts on screen are old. */
const staleNote = (page: Page) => page.locator(".stale-note", { hasText: /as of \d\d:\d\d:\d\d/ });

const counter = (page: Page, state: string) =>
  page.locator(`.counter.state-${state} .counter-value`);

const redisCard = (page: Page) => page.locator(".card", { hasText: "Redis uptime" });

browserTest(
  "a Redis outage shows on every open view within seconds, and every view recovers when Redis returns",
  async () => {
    await withBoard({}, async ({ page: overview, root, redis }) => {
      const task = await overview.context().newPage();
      const dlq = await overview.context().newPage();
      await overview.goto(root);
      await task.goto(`${root}tasks/send-email?state=failed`);
      await dlq.goto(`${root}dlq`);
      const views = [overview, task, dlq];
      for (const view of views) await liveness(view, /^Live$/).waitFor();
      await counter(overview, "failed").filter({ hasText: /^5$/ }).waitFor();
      await redisCard(overview).getByText("Connected", { exact: true }).waitFor();
      await task.locator(".job-table tbody tr").nth(4).waitFor();
      await dlq.locator(".dlq-group").nth(1).waitFor();

      // Redis dies (killed, as a crash would). Its data is on disk, as with persistence.
      await redis.stop({ keepData: true });
      for (const view of views) {
        await liveness(view, /^Redis unreachable — showing data as of \d\d:\d\d:\d\d$/)
          .waitFor(FOLLOWS);
        await staleNote(view).waitFor(FOLLOWS);
      }
      await redisCard(overview).getByText("Disconnected").waitFor(FOLLOWS);
      assert.equal(await redisCard(overview).getByText("Connected", { exact: true }).count(), 0);
      assert.equal(await counter(overview, "failed").textContent(), "5", "the last known count");
      for (const width of [390, 1280, 1920]) {
        await overview.setViewportSize({ width, height: 900 });
        await screenshot(overview, `overview-redis-down-${width}`);
      }

      // What a view asks for meanwhile fails, and says why.
      await task.getByRole("tab", { name: /^completed/ }).click();
      await task.getByRole("alert").filter({ hasText: "STORE_UNAVAILABLE" }).waitFor(FOLLOWS);
      await dlq.getByRole("button", { name: "SMTP timeout", exact: true }).click();
      await dlq.getByRole("alert").filter({ hasText: "STORE_UNAVAILABLE" }).waitFor(FOLLOWS);

      await redis.start();
      for (const view of views) {
        await liveness(view, /^Live$/).waitFor(FOLLOWS);
        await staleNote(view).waitFor({ state: "detached", ...FOLLOWS });
      }
      await redisCard(overview).getByText("Connected", { exact: true }).waitFor(FOLLOWS);
      await task.locator(".job-table tbody tr").nth(9).waitFor(FOLLOWS);
      await dlq.locator(".dlq-jobs-table tbody tr").nth(2).waitFor(FOLLOWS);
      for (const view of [task, dlq]) {
        await view.getByRole("alert").waitFor({ state: "detached", ...FOLLOWS });
      }
    });
  },
);

browserTest(
  "with the board server unreachable the top bar says Offline, and the page reloads when it answers",
  async () => {
    await withBoard({}, async ({ page, root }) => {
      await page.goto(`${root}tasks/send-email?state=failed`);
      await liveness(page, /^Live$/).waitFor();
      await page.locator(".job-table tbody tr").nth(4).waitFor();

      await page.context().setOffline(true);
      await page.getByRole("tab", { name: /^completed/ }).click();
      await liveness(page, /^Offline — showing data as of \d\d:\d\d:\d\d$/).waitFor(FOLLOWS);
      await staleNote(page).filter({ hasText: "when the board server answers" }).waitFor();
      await page.getByRole("alert").filter({ hasText: "NETWORK" }).waitFor();

      await page.context().setOffline(false);
      await liveness(page, /^Live$/).waitFor(FOLLOWS);
      await page.locator(".job-table tbody tr").nth(9).waitFor(FOLLOWS);
      await page.getByRole("alert").waitFor({ state: "detached", ...FOLLOWS });
      await staleNote(page).waitFor({ state: "detached" });
    });
  },
);
