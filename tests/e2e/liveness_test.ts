/**
 * Liveness, the migration-lock banner and the App's definition in a real
 * browser. On the fixture's Redis: a worker's lock on the `slow` job (with
 * the job in the stall check's set: not stalled), none on the `transcode`
 * job (stalled), a scheduler holding the leader lock, then a migrator
 * holding the migration lock. With
 * a real taskora App: the task's Definition card and the schedule editor's
 * warning for a schedule declared in code. Screenshots at 390, 1280 and
 * 1920 px under tests/e2e/screenshots/ with `SCREENSHOTS=1`.
 */

import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { createBoard } from "../../mod.ts";
import { holdMigrationLock, MIGRATION_LOCK_KEY } from "../helpers/migration_lock.ts";
import { connectClient, withClient } from "../helpers/redis_server.ts";
import { createTaskora, redisAdapter } from "../taskora/harness.ts";
import {
  browserTest,
  freshRedis,
  screenshot,
  serveTestBoard,
  sharedBrowser,
  withBoard,
} from "./harness.ts";

const SLOW_ACTIVE = "485336b8-640e-4fb4-8639-b47005927994";
const TRANSCODE_ACTIVE = "d8e1df37-39dd-4863-9508-f7c9bd517880";
const WIDTHS = [390, 1280, 1920];

/** Screenshots the page at each of {@link WIDTHS}. */
async function atWidths(page: Page, name: string): Promise<void> {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForTimeout(100);
    await screenshot(page, `${name}-${width}`);
  }
  await page.setViewportSize({ width: 1360, height: 860 });
}

browserTest(
  "the active tab shows each job's lock time left, 'stalled?' without one, the stalled jobs and the scheduler leader",
  async () => {
    await withBoard({}, async ({ page, root, redis }) => {
      const client = await connectClient(redis.url);
      try {
        await client.sendCommand([
          "SET",
          `taskora:{slow}:${SLOW_ACTIVE}:lock`,
          "tok",
          "PX",
          "90000",
        ]);
        await client.sendCommand(["SADD", "taskora:{slow}:stalled", SLOW_ACTIVE]);
        await client.sendCommand(["SET", "taskora:schedules:lock", "3f0c2a9e-lead", "PX", "90000"]);
      } finally {
        await client.close();
      }
      await page.goto(`${root}tasks/slow?state=active`);
      const row = page.locator(`tr[data-job="${SLOW_ACTIVE}"]`);
      await row.locator(".lock-left").waitFor();
      assert.match(await row.textContent() ?? "", /1m \d+s left/);
      const bar = page.locator(".liveness-bar");
      await bar.getByText("Scheduler leader").waitFor();
      const barText = await bar.textContent() ?? "";
      assert.match(
        barText,
        /Every active job holds a lock/,
        "a stall check's candidate is not stalled",
      );
      assert.match(barText, /Scheduler leader 3f0c2a9e/);
      assert.match(barText, /read (now|\d+s ago)/, "the reading's age is said");
      assert.match(
        await page.locator(".no-app").textContent() ?? "",
        /definition and a dispatch form\. They need the board embedded with createBoard\(app\)/,
      );
      await atWidths(page, "liveness-active-tab");

      await page.goto(`${root}tasks/transcode?state=active`);
      const flag = page.locator(`tr[data-job="${TRANSCODE_ACTIVE}"] .stalled-flag`);
      await flag.waitFor();
      assert.equal(await flag.textContent(), "stalled?");
      const stalled = page.locator(".liveness-bar .stalled-jobs");
      await stalled.waitFor();
      assert.match(
        await stalled.textContent() ?? "",
        /Stalled: 1 active job without a lock\s+d8e1df37/,
      );

      await page.goto(`${root}jobs/${SLOW_ACTIVE}`);
      const facts = page.locator(".job-facts");
      await facts.locator(".lock-left").waitFor();
      assert.match(await facts.textContent() ?? "", /Lock\s*1m \d+s left/);
      assert.match(await facts.textContent() ?? "", /v1\s*· task version unknown/);
      await atWidths(page, "liveness-job");
      await page.goto(`${root}jobs/${TRANSCODE_ACTIVE}`);
      await page.locator(".job-facts .stalled-flag").waitFor();

      await page.goto(`${root}schedules`);
      await page.locator(".liveness-bar", { hasText: "Scheduler leader 3f0c2a9e" }).waitFor();
      await atWidths(page, "liveness-schedules");
    });
  },
);

browserTest(
  "the migration-lock banner says who holds the lock and why while a migrator runs",
  async () => {
    await withBoard({}, async ({ page, root, redis }) => {
      await page.goto(`${root}tasks/send-email`);
      await page.locator(".task-name").waitFor();
      assert.equal(await page.locator(".banner-warning").count(), 0);
      await withClient(redis.url, (client) => holdMigrationLock(client));
      await page.reload();
      const banner = page.locator(".banner-warning", { hasText: "taskora migration in progress" });
      await banner.waitFor();
      assert.match(await banner.textContent() ?? "", /wireVersion-6-to-7, by taskora-wire-7/);
      await atWidths(page, "migration-banner");
    });
  },
);

/**
 * The migrator's lock in the banner test: long enough that the page has read it whatever the
 * machine's load (one of 6 s lapsed before a page at load ~30 had read it), then made to lapse,
 * in Redis and on the page's clock (`page.clock`), when the test says.
 */
const MIGRATION_LOCK_MS = 120_000;

browserTest("the banner counts the lock's expiry down and goes once the lock lapses", async () => {
  await withBoard({}, async ({ page, root, redis }) => {
    await withClient(redis.url, (client) => holdMigrationLock(client, MIGRATION_LOCK_MS));
    await page.clock.install();
    await page.goto(`${root}tasks/send-email`);
    const banner = page.locator(".banner-warning", { hasText: "taskora migration in progress" });
    await banner.waitFor();
    const secondsLeft = async () =>
      Number(/expires in (\d+) s/.exec(await banner.textContent() ?? "")?.[1]);
    const first = await secondsLeft();
    assert.ok(first > 0 && first <= MIGRATION_LOCK_MS / 1000, `expires in ${first} s`);
    // No request or event in between: the count goes down by itself.
    await page.waitForFunction(
      (before) => /expires in (\d+) s/.exec(document.body.textContent ?? "")?.[1] !== before,
      String(first),
    );
    assert.ok(await secondsLeft() < first);

    await withClient(redis.url, (client) => client.pExpire(MIGRATION_LOCK_KEY, 1));
    await page.clock.fastForward(MIGRATION_LOCK_MS);
    await banner.waitFor({ state: "detached" });
  });
});

browserTest(
  "with a taskora App: the Definition card and the editor's warning for a schedule declared in code",
  async () => {
    const redis = await freshRedis();
    const app = createTaskora({ adapter: redisAdapter(redis.url) });
    app.task("report", {
      version: 3,
      since: 2,
      migrate: { 2: (d: unknown) => d, 3: (d: unknown) => d },
      retry: { attempts: 5, backoff: "exponential", delay: 1000, maxDelay: 60_000 },
      timeout: 30_000,
      concurrency: 4,
      ttl: { max: "1h" },
      handler: () => "ok",
    });
    app.schedule("nightly-report", { task: "report", cron: "0 3 * * *", data: {} });
    const board = createBoard(app);
    const server = await serveTestBoard(board);
    const page = await (await sharedBrowser()).newPage({ viewport: { width: 1360, height: 860 } });
    try {
      await app.start();
      const root = `${server.url}/board/`;
      await page.goto(`${root}tasks/report`);
      const card = page.locator(".card", { hasText: "Definition" });
      await card.locator(".definition-facts").waitFor();
      const text = await card.textContent() ?? "";
      assert.match(text, /v3 · since 2/);
      assert.match(text, /5 attempts · exponential backoff from 1\.0 s, max 1m(?!\s*\d)/);
      assert.match(text, /30\.0 s/);
      assert.match(text, /4 per worker/);
      assert.match(text, /nightly-report/);
      assert.equal(
        await card.getByRole("link", { name: "nightly-report" }).getAttribute("href"),
        "schedules",
      );
      await atWidths(page, "definition-app");

      await page.goto(`${root}schedules`);
      const row = page.locator("tbody tr", { hasText: "nightly-report" }).first();
      await row.getByRole("button", { name: /Edit/ }).click();
      const warning = page.locator(".schedule-editor [role=note]");
      await warning.waitFor();
      assert.match(await warning.textContent() ?? "", /declared in the App's code/);
      await atWidths(page, "schedule-declared-in-code");
    } finally {
      await page.context().close(); // its event stream would hold up the server's shutdown
      await server.stop();
      await board.close();
      await app.close();
    }
  },
);
