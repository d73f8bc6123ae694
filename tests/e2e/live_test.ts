/**
 * Every view follows the store and the event stream, in a real browser on a
 * real Redis holding the taskora fixture: a Redis outage shows at once on
 * every open view (and each recovers at once when Redis returns), and changes
 * made outside a page (another browser, a script, a worker) reach it within
 * a stats interval, whether they come with job events or only show in the
 * counts.
 *
 * Fixture facts used below: `send-email` holds 5 failed jobs (3 × "SMTP
 * timeout", 2 × "Mailbox full") and 10 completed ones; `resize-image` has 5
 * delayed jobs on v1 and v2.
 */

import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { connectClient, type TestRedis } from "../helpers/redis_server.ts";
import { createRedisSource } from "../../src/source/redis/mod.ts";
import { metricKey } from "../../src/source/wire/keys.ts";
import { writeJob } from "../helpers/wire_writer.ts";
import { browserTest, screenshot, withBoard } from "./harness.ts";

const FAILED_EMAIL = "7deea1e0-af8c-4c24-bb84-c89069ee4b0a";
/** Longest wait for something that should follow within a stats interval or so (a hang guard). */
const FOLLOWS = { timeout: 10_000 };

/**
 * Stats frames every 500 ms (the least; 3 s by default): what follows the
 * counts follows the next frame, and the test waits for one interval, not six.
 */
const FRAMES_OFTEN = { statsInterval: 500 };

/** The top bar's statement of what is live. */
const liveness = (page: Page, text: string | RegExp) => page.locator(".live", { hasText: text });

/** The note that the counts on screen are old. */
const staleNote = (page: Page) => page.locator(".stale-note", { hasText: /as of \d\d:\d\d:\d\d/ });

const counter = (page: Page, state: string) =>
  page.locator(`.counter.state-${state} .counter-value`);

const redisCard = (page: Page) => page.locator(".card", { hasText: "Redis uptime" });

/** POSTs JSON to the board's API, as a script or another browser would. */
async function post(url: string, body: unknown = {}): Promise<unknown> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const answer = await res.json();
  assert.equal(res.status, 200, JSON.stringify(answer));
  return answer;
}

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
      // Each read that failed says so: the tab's list, and on a loaded machine the cards'
      // (Workers, Drain forecast) too, four alerts where the test once found one.
      await page.getByRole("alert").filter({ hasText: "NETWORK" }).first().waitFor();

      await page.context().setOffline(false);
      await liveness(page, /^Live$/).waitFor(FOLLOWS);
      await page.locator(".job-table tbody tr").nth(9).waitFor(FOLLOWS);
      await page.getByRole("alert").first().waitFor({ state: "detached", ...FOLLOWS });
      await staleNote(page).waitFor({ state: "detached" });
    });
  },
);

browserTest(
  "jobs retried outside the open DLQ leave it, and its counts and task filter follow",
  async () => {
    await withBoard(FRAMES_OFTEN, async ({ page, root }) => {
      await page.goto(`${root}dlq`);
      await liveness(page, /^Live$/).waitFor();
      const filter = page.getByLabel("Task");
      await filter.locator("option", { hasText: "send-email (5)" }).waitFor({ state: "attached" });
      await page.getByRole("button", { name: "SMTP timeout", exact: true }).click();
      const rows = page.locator(".dlq-jobs-table tbody tr");
      await rows.nth(2).waitFor();
      const first = (await rows.locator("[data-id]").first().getAttribute("data-id"))!;

      // From outside the page: one job of the open group, and the other group whole.
      await post(`${root}api/jobs/${first}/retry`);
      await post(`${root}api/dlq/retry-all`, { pattern: "Mailbox full" });
      await page.locator(".dlq-jobs-table tr", { hasText: first })
        .waitFor({ state: "detached", ...FOLLOWS });
      await page.locator(".dlq-group", { hasText: "Mailbox full" })
        .waitFor({ state: "detached", ...FOLLOWS });
      await page.locator(".dlq-group", { hasText: "SMTP timeout" }).locator(".dlq-count")
        .filter({ hasText: /^2$/ }).waitFor(FOLLOWS);
      await counter(page, "failed").filter({ hasText: /^2$/ }).waitFor(FOLLOWS);
      await filter.locator("option", { hasText: "send-email (2)" })
        .waitFor({ state: "attached", ...FOLLOWS });
      assert.equal(await rows.count(), 2);

      // A retry made on the page moves the filter's count too.
      await rows.first().getByRole("button", { name: /^Retry job / }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Retry 1 job" }).click();
      await filter.locator("option", { hasText: "send-email (1)" })
        .waitFor({ state: "attached", ...FOLLOWS });
      await counter(page, "failed").filter({ hasText: /^1$/ }).waitFor(FOLLOWS);
    });
  },
);

browserTest(
  "the task, job, migrations and overview pages follow changes that come without job events",
  async () => {
    // Discovery every second (the default pause is 10 s): the new task is found by the same
    // background rediscovery, sooner.
    const source = (redis: TestRedis) =>
      createRedisSource({ url: redis.url, discoveryIntervalMs: 1000 });
    await withBoard({ ...FRAMES_OFTEN, source }, async ({ page: taskPage, root, redis }) => {
      const jobPage = await taskPage.context().newPage();
      const migrations = await taskPage.context().newPage();
      const overview = await taskPage.context().newPage();
      await taskPage.goto(`${root}tasks/send-email?state=failed`);
      await jobPage.goto(`${root}jobs/${FAILED_EMAIL}`);
      await migrations.goto(`${root}migrations`);
      await overview.goto(root);
      await taskPage.locator(".job-table tbody tr").nth(4).waitFor();
      await jobPage.getByText("SMTP timeout").first().waitFor();
      const resize = migrations.locator(".mig-card", { hasText: "resize-image" });
      const currentTotal = resize.locator(".mig-table tbody tr", { hasText: "current" })
        .locator("td").last();
      await currentTotal.filter({ hasText: /^0$/ }).waitFor();
      await overview.getByRole("row", { name: /send-email/ }).waitFor();
      for (const view of [taskPage, jobPage, migrations, overview]) {
        await liveness(view, /^Live$/).waitFor();
      }

      // A clean removes jobs without writing job events: only the counts show it.
      await post(`${root}api/tasks/send-email/clean`, { state: "failed", olderThan: 0 });
      await taskPage.getByText("No failed jobs").waitFor(FOLLOWS);
      await taskPage.getByRole("tab", { name: /^failed\s*0$/i }).waitFor(FOLLOWS);
      await jobPage.getByText(`No job with ID ${FAILED_EMAIL}`).waitFor(FOLLOWS);

      // New pending work, and a task nobody has seen before.
      const client = await connectClient(redis.url);
      try {
        await writeJob(client, { task: "resize-image", state: "waiting", version: 3 });
        await writeJob(client, { task: "brand-new", state: "waiting" });
      } finally {
        await client.close();
      }
      await currentTotal.filter({ hasText: /^1$/ }).waitFor(FOLLOWS);
      // Task discovery runs in the background (here every second at most).
      await overview.getByRole("row", { name: /brand-new/ }).waitFor({ timeout: 20_000 });
    });
  },
);

browserTest("a task's health on the overview follows the counts it is judged on", async () => {
  // Polling once an hour: only the stats frames can bring the new health.
  await withBoard(
    { ...FRAMES_OFTEN, refreshInterval: 3_600_000 },
    async ({ page, root, redis }) => {
      await page.goto(root);
      const notify = page.getByRole("row", { name: /notify/ });
      await notify.locator(".health", { hasText: "healthy" }).waitFor();
      await liveness(page, /^Live$/).waitFor();

      // Five failures this minute against the one completed job: no job event is written.
      const client = await connectClient(redis.url);
      try {
        for (let i = 0; i < 5; i++) await writeJob(client, { task: "notify", state: "failed" });
        const minute = Math.floor(Date.now() / 60_000) * 60_000;
        await client.sendCommand(["INCRBY", metricKey("notify", "failed", minute), "5"]);
      } finally {
        await client.close();
      }
      await notify.locator(".health", { hasText: "critical" }).waitFor(FOLLOWS);
    },
  );
});

/** Makes `page` hidden or shown, as a browser does when its tab is switched away from or back to. */
async function setHidden(page: Page, hidden: boolean): Promise<void> {
  await page.evaluate((hidden) => {
    Object.defineProperty(document, "hidden", { configurable: true, get: () => hidden });
    Object.defineProperty(document, "visibilityState", {
      configurable: true,
      get: () => hidden ? "hidden" : "visible",
    });
    document.dispatchEvent(new Event("visibilitychange"));
  }, hidden);
}

browserTest(
  "hidden tabs give their event stream back, so a seventh tab of the board loads, and follow again when shown",
  async () => {
    await withBoard({}, async ({ page: first, root }) => {
      // Six tabs, each holding a stream: the browser's six connections to the board.
      const tabs = [first];
      for (let i = 1; i < 6; i++) tabs.push(await first.context().newPage());
      for (const tab of tabs) {
        await tab.goto(root);
        await liveness(tab, /^Live$/).waitFor();
      }
      for (const tab of tabs) await setHidden(tab, true);

      const seventh = await first.context().newPage();
      await seventh.goto(root, FOLLOWS);
      await liveness(seventh, /^Live$/).waitFor(FOLLOWS);
      await counter(seventh, "failed").filter({ hasText: /^5$/ }).waitFor();

      // Shown again, a tab opens its stream and reads what changed while it was hidden.
      await post(`${root}api/jobs/${FAILED_EMAIL}/retry`);
      await setHidden(first, false);
      await liveness(first, /^Live$/).waitFor(FOLLOWS);
      await counter(first, "failed").filter({ hasText: /^4$/ }).waitFor(FOLLOWS);
    });
  },
);
