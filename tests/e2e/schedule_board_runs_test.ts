/**
 * The runs the board dispatched, on the schedules page, in a real browser
 * on real Redis holding the taskora fixture: taskora keeps only a
 * schedule's last run, and the page says so; a state the source trusted
 * from an earlier read says how old it is, and only such a state does.
 */

import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import { RedisTaskSource } from "../../src/source/redis/mod.ts";
import { readFixture } from "../helpers/fixture.ts";
import { ShiftedClock } from "../helpers/shifted_clock.ts";
import { browserTest, screenshot, withBoard } from "./harness.ts";

/** Opens the schedules page and runs heartbeat now: its row. */
async function runHeartbeatNow(page: Page, root: string) {
  await page.goto(`${root}schedules`);
  await page.getByText("taskora keeps only each schedule's last run").waitFor();
  const heartbeat = page.locator("tbody tr", { hasText: "heartbeat" }).first();
  await heartbeat.getByRole("button", { name: "Run now" }).click();
  await page.getByRole("dialog").getByRole("button", { name: /Run now/ }).click();
  return heartbeat;
}

browserTest(
  "a schedule lists the runs the board dispatched, each with its job's state and link",
  async () => {
    await withBoard({}, async ({ page, root }) => {
      const heartbeat = await runHeartbeatNow(page, root);

      const runs = heartbeat.locator(".schedule-board-runs");
      await runs.locator("summary", { hasText: "Run from the board: 1" }).waitFor();
      await runs.locator("summary").click();
      const run = runs.locator("li").first();
      assert.match(await run.textContent() ?? "", /waiting/i, "no worker runs it here");
      const href = await run.getByRole("link").getAttribute("href");
      assert.match(href ?? "", /^jobs\/[0-9a-f-]{36}$/);
      for (const width of [390, 1280, 1920]) {
        await page.setViewportSize({ width, height: 900 });
        await screenshot(page, `schedule-board-runs-${width}`);
      }
    });
  },
);

browserTest(
  "Run now reads the list again even when a read answered before the run is still on its way",
  async () => {
    await withBoard({}, async ({ page, root }) => {
      await page.goto(`${root}schedules`);
      await page.getByText("taskora keeps only each schedule's last run").waitFor();
      // From now on every read of the list is answered by the board at once but reaches the page
      // only after the run: the read under way when Run now is clicked predates the run.
      let runDone = () => {};
      const afterRun = new Promise<void>((resolve) => runDone = resolve);
      let readHeld = () => {};
      const aReadIsHeld = new Promise<void>((resolve) => readHeld = resolve);
      await page.route(/\/api\/schedules$/, async (route) => {
        const response = await route.fetch();
        readHeld();
        await afterRun;
        await route.fulfill({ response });
      });
      // Pausing reads the list again: that read is the one under way when Run now is clicked.
      const heartbeat = page.locator("tbody tr", { hasText: "heartbeat" }).first();
      await heartbeat.getByRole("button", { name: "Pause" }).click();
      await aReadIsHeld;
      const triggered = page.waitForResponse((r) => r.url().endsWith("/trigger"));
      await heartbeat.getByRole("button", { name: "Run now" }).click();
      await page.getByRole("dialog").getByRole("button", { name: /Run now/ }).click();
      await triggered;
      runDone();
      await heartbeat.locator(".schedule-board-runs summary", { hasText: "Run from the board: 1" })
        .waitFor({ timeout: 10_000 });
    });
  },
);

browserTest(
  "a schedule's every run, the scheduler's the board saw and the board's, each with its outcome and link",
  async () => {
    await withBoard({}, async ({ page, root }) => {
      const heartbeat = await runHeartbeatNow(page, root);
      await heartbeat.locator(".schedule-board-runs summary", { hasText: "Run from the board: 1" })
        .waitFor();

      const every = heartbeat.locator(".schedule-all-runs");
      await every.locator("summary", { hasText: "Every run" }).click();
      const runs = every.locator("li");
      await runs.nth(1).waitFor();
      const texts = await runs.allTextContents();
      assert.match(texts[0], /waiting/i, "the board's run, newest: no worker runs it here");
      assert.match(texts[0], /Run now/);
      assert.match(texts[1], /scheduled/, "the scheduler's last run, noted when the page read it");
      for (let i = 0; i < texts.length; i++) {
        assert.match(await runs.nth(i).getByRole("link").getAttribute("href") ?? "", /^jobs\//);
      }
      await screenshot(page, "schedule-all-runs");
    });
  },
);

browserTest(
  "a last run's finished state the board read a while ago says how old it is",
  async () => {
    // Once the source is made, its clock goes 40 s back: each state it reads is 40 s old on arrival.
    const timers = new ShiftedClock();
    await withBoard({
      source: (redis) => {
        const source = new RedisTaskSource({ url: redis.url }, timers);
        timers.ahead(-40_000);
        return source;
      },
    }, async ({ page, root }) => {
      await page.goto(`${root}schedules`);
      const heartbeat = page.locator("tbody tr", { hasText: "heartbeat" }).first();
      await heartbeat.locator(".schedule-last-job .state-badge").waitFor();
      const age = heartbeat.locator(".schedule-status-age");
      await age.waitFor();
      assert.match((await age.textContent())!.replace(/\s+/g, " "), /^state as of 4\ds ago$/);
      for (const width of [390, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        await screenshot(page, `schedule-status-age-${width}`);
      }
    });
  },
);

browserTest(
  "on the memory source, whose states are live, no state says how old it is",
  async () => {
    await withBoard({
      source: () => createMemorySource({ seed: readFixture(), simulate: false }),
    }, async ({ page, root }) => {
      const heartbeat = await runHeartbeatNow(page, root);
      await heartbeat.locator(".schedule-board-runs summary", { hasText: "Run from the board: 1" })
        .waitFor();
      const note = await page.locator(".schedule-runs-note").textContent();
      assert.doesNotMatch(note!, /minute/, "nothing said of a state read a while ago");
      assert.equal(await page.locator(".schedule-status-age").count(), 0);
    });
  },
);
