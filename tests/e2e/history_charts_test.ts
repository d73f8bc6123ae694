/**
 * The job history's charts and a task's week in a real browser, on a board
 * recording its history in Redis (under its own key prefix, so the
 * fixture's events are not in it): the range picker changes what the
 * charts and their totals cover, the version selector narrows them, the
 * week says what the last 7 days held; a board without history shows none.
 */

import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { RedisConnection } from "../../src/source/redis/client.ts";
import { createRedisSource } from "../../src/source/redis/mod.ts";
import { taskKeys } from "../../src/source/wire/keys.ts";
import { createRedisHistoryStore } from "../../src/store/redis/history/store.ts";
import type { HistoryEntry } from "../../src/history/summary.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { browserTest, screenshotView, withBoard } from "./harness.ts";

const PREFIX = "e2e";
const MINUTE = 60_000;
const DAY = 86_400_000;

/** `count` attempts of `ledger` at `version` that ended `outcome` `agoMs` ago. */
function entries(
  count: number,
  { outcome, version, agoMs }: {
    outcome: "completed" | "failed";
    version: number;
    agoMs: number;
  },
): HistoryEntry[] {
  const endedAt = Date.now() - agoMs;
  return Array.from({ length: count }, (_, n) => ({
    task: "ledger",
    id: `${outcome}-${version}-${agoMs}-${n}`,
    event: `${endedAt}-${n}`,
    attempt: 1,
    outcome,
    version,
    createdAt: endedAt - 2000 - 100 * n,
    startedAt: endedAt - 500 - 50 * n,
    endedAt,
    error: outcome === "failed" ? "ledger locked" : null,
    errorShape: null,
  }));
}

/** The task `ledger` in the keyspace (one completed job at version 2), and its history. */
async function seed(url: string): Promise<void> {
  const connection = new RedisConnection({ url });
  try {
    await connection.ready();
    const keys = taskKeys("ledger", PREFIX);
    const now = Date.now();
    await connection.pipeline([
      ["HSET", `${keys.jobPrefix}held`, "state", "completed", "_v", "2", "ts", String(now)],
      ["ZADD", keys.completed, String(now), "held"],
    ]);
    await createRedisHistoryStore({ connection, prefix: PREFIX }).write({
      entries: [
        ...entries(4, { outcome: "completed", version: 2, agoMs: 30 * MINUTE }),
        ...entries(2, { outcome: "failed", version: 1, agoMs: 3 * DAY }),
        ...entries(6, { outcome: "completed", version: 1, agoMs: 20 * DAY }),
      ],
    });
  } finally {
    await connection.close();
  }
}

/** Chooses a range and waits for the card to say it covers it. */
async function pick(page: Page, range: string, words: string) {
  const card = page.locator(".card", { has: page.locator(".range-picker") });
  await card.getByRole("group", { name: "Range" }).getByRole("button", { name: range }).click();
  await card.locator(".card-title", { hasText: `History, ${words}` }).waitFor();
  return card;
}

async function totalsOf(page: Page, text: RegExp): Promise<void> {
  await page.locator(".history-totals", { hasText: text }).waitFor();
}

browserTest(
  "the range picker sets what the history's charts cover, on the overview and per version",
  async () => {
    await withBoard({
      history: true,
      source: (redis) => createRedisSource({ url: redis.url, prefix: PREFIX }),
    }, async ({ page, root, redis }) => {
      await seed(redis.url);
      await page.goto(root);
      const card = page.locator(".card", { has: page.locator(".range-picker") });
      await card.locator(".card-title", { hasText: "History, last 24 hours" }).waitFor();
      await totalsOf(page, /4 completed\s*0 failed/);
      // uPlot is loaded on first use: its canvases come a moment after the totals.
      await card.locator(".history-chart canvas").nth(3).waitFor();
      assert.equal(await card.locator(".history-chart canvas").count(), 4, "four charts drawn");
      assert.match(await card.locator(".history-as-of").textContent() ?? "", /read at \d\d:\d\d/);

      await pick(page, "7d", "last 7 days");
      await totalsOf(page, /4 completed\s*2 failed\s*33% failed/);
      await pick(page, "30d", "last 30 days");
      await totalsOf(page, /10 completed\s*2 failed/);
      const pressed = await card.getByRole("button", { pressed: true }).allTextContents();
      assert.deepEqual(pressed, ["30d"]);
      for (const width of [390, 1280, 1920]) {
        await page.setViewportSize({ width, height: 900 });
        await screenshotView(card, `history-overview-${width}`);
      }

      await page.setViewportSize({ width: 1360, height: 860 });
      // The board finds a new task on its discovery pass: until then its page says there is none.
      await waitFor(async () => {
        const stats = await page.request.get(`${root}api/tasks/ledger/stats`);
        await stats.dispose();
        return stats.status() === 200;
      }, { what: "the board to discover the task ledger" });
      await page.goto(`${root}tasks/ledger`);
      const week = page.locator(".card", {
        has: page.locator(".card-title", { hasText: /^Last 7 days$/ }),
      });
      await week.locator(".task-week").waitFor();
      const facts = await week.locator(".task-week dd").allTextContents();
      assert.deepEqual(
        facts.slice(0, 3).map((fact) => fact.trim()),
        ["4", "2", "33%"],
        "completed, failed, failure rate",
      );
      assert.match(await week.textContent() ?? "", /holds nothing of the 7 days before/);

      await pick(page, "7d", "last 7 days");
      await totalsOf(page, /4 completed\s*2 failed/);
      const version = page.getByRole("combobox", { name: "Version" });
      assert.deepEqual(await version.locator("option").allTextContents(), [
        "All versions",
        "v2",
        "v1",
      ]);
      await version.selectOption("2");
      await totalsOf(page, /4 completed\s*0 failed/);
      await version.selectOption("1");
      await totalsOf(page, /0 completed\s*2 failed/);
      for (const width of [390, 1280, 1920]) {
        await page.setViewportSize({ width, height: 900 });
        await screenshotView(week, `history-week-${width}`);
        await screenshotView(
          page.locator(".card", { has: page.locator(".range-picker") }),
          `history-task-${width}`,
        );
      }
    });
  },
);

browserTest(
  "a board that records no history shows no history card and no History link",
  async () => {
    await withBoard({}, async ({ page, root }) => {
      await page.goto(root);
      await page.locator(".card", { hasText: "Throughput" }).waitFor();
      await page.goto(`${root}tasks/report`);
      await page.locator(".card", { hasText: "Latency" }).waitFor();
      assert.equal(await page.locator(".card", { hasText: "History, " }).count(), 0);
      assert.equal(await page.locator(".card", { hasText: "Last 7 days" }).count(), 0);
      const sidebar = page.getByRole("navigation", { name: "Main" });
      assert.equal(
        await sidebar.getByRole("link", { name: "History" }).count(),
        0,
        "no History link",
      );
    });
  },
);
