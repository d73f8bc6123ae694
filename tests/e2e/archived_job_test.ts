/**
 * A job taskora no longer holds, in a real browser, on a board with the
 * history on (Redis): its page comes from what the history kept, marked
 * archived, with no action button, and its Attempts list each attempt's own
 * error; the job-ID box finds it by the start of its id, marked archived.
 * With `SCREENSHOTS=1`, screenshots at 390, 1280 and 1920 px.
 */

import assert from "node:assert/strict";
import type { HistoryEntry } from "../../src/history/summary.ts";
import { RedisConnection } from "../../src/source/redis/client.ts";
import { createRedisHistoryStore } from "../../src/store/redis/history/store.ts";
import { browserTest, screenshot, withBoard } from "./harness.ts";

/** The job, one the fixture's `send-email` task ran and taskora removed since. */
const ID = "a7c1e0de-5e4d-4f0a-9b1e-0123456789ab";

/** Writes what the board's recorder writes of a job failing three times. */
async function keepFailingJob(url: string): Promise<number> {
  const connection = new RedisConnection({ url });
  const created = Date.now() - 3_600_000;
  const attempt = (n: number): HistoryEntry => ({
    task: "send-email",
    id: ID,
    event: `${created + n * 1_000}-0`,
    attempt: n,
    outcome: n === 3 ? "failed" : "retrying",
    version: 2,
    createdAt: created,
    startedAt: created + n * 1_000 - 400,
    endedAt: created + n * 1_000,
    error: `SMTP timeout #${n}`,
    errorShape: "smtp",
  });
  try {
    await connection.ready();
    await createRedisHistoryStore({ connection }).write({ entries: [1, 2, 3].map(attempt) });
    return created + 3_000;
  } finally {
    await connection.close();
  }
}

browserTest(
  "a job taskora removed opens archived from the history, each attempt with its own error",
  async () => {
    await withBoard({ history: true }, async ({ page, redis, root }) => {
      await keepFailingJob(redis.url);
      await page.goto(`${root}jobs/${ID}`);
      await page.getByRole("note").filter({
        hasText: "Archived: taskora removed it at some time after",
      }).waitFor();
      for (const name of [/^Retry/, /^Cancel/, /^Run again/, /^Edit/]) {
        assert.equal(await page.getByRole("button", { name }).count(), 0, `no ${name} button`);
      }
      const items = page.locator("ol.attempts > li");
      await items.nth(2).waitFor();
      const texts = (await items.allTextContents()).map((text) => text.replace(/\s+/g, " ").trim());
      assert.deepEqual(texts.map((text) => /SMTP timeout #\d/.exec(text)?.[0]), [
        "SMTP timeout #1",
        "SMTP timeout #2",
        "SMTP timeout #3",
      ]);
      for (const width of [390, 1280, 1920]) {
        await page.setViewportSize({ width, height: 900 });
        await screenshot(page, `archived-job-${width}`);
      }

      await page.setViewportSize({ width: 1280, height: 900 });
      const box = page.getByLabel("Find a job by ID");
      await box.fill(ID.slice(0, 8));
      await box.press("Enter");
      const match = page.locator(".search-matches li").filter({ hasText: ID });
      await match.waitFor();
      assert.match(await match.textContent() ?? "", /Archived/);
      for (const width of [390, 1280, 1920]) {
        await page.setViewportSize({ width, height: 900 });
        await screenshot(page, `archived-job-box-${width}`);
      }
    });
  },
);
