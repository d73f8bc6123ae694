/**
 * The job page of an active job states its lock once: the header's Lock and
 * the "Why is it still running?" card read the same reading on the same
 * clock, so they count down together and, when the worker dies and the lock
 * runs out, both say so at once (they disagreed for 20 s: one said "expires
 * in 25 s", the other counted down).
 */

import assert from "node:assert/strict";
import { withClient } from "../helpers/redis_server.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { writeJob } from "../helpers/wire_writer.ts";
import { browserTest, screenshot, withBoard } from "./harness.ts";

/** Longest wait for the lock to run out and be re-read (a hang guard). */
const RUNS_OUT = { timeout: 20_000 };

browserTest("the header's lock and the diagnosis card agree, and go stalled together", async () => {
  await withBoard({}, async ({ page, root, redis }) => {
    // A worker's lock, never renewed: its worker is gone. Redis expires it by itself.
    const id = await withClient(redis.url, async (client) => {
      const active = await writeJob(client, { task: "locked", state: "active" });
      await client.sendCommand(["SET", `taskora:{locked}:${active}:lock`, "tok-1", "PX", "4000"]);
      return active;
    });
    await page.goto(`${root}jobs/${id}`);
    const header = page.locator(".job-facts");
    const card = page.locator("section.card", { hasText: "Why is it still running?" });
    const running = card.locator('li[data-code="running"]');
    await header.locator(".lock-left").waitFor();
    await running.locator(".lock-left").waitFor();
    // One reading, one clock: the same time left. Each ticks in its own render, so at a
    // second's turn one may show the next second first (seen once under load): they agree once
    // both have drawn it, never by the 9 s the two readings differed by before.
    const agree = await waitFor(async () => {
      const [left, said] = await page.evaluate(() =>
        [".job-facts .lock-left", 'li[data-code="running"] .lock-left'].map((selector) =>
          document.querySelector(selector)?.textContent
        )
      );
      return left !== undefined && left === said && left;
    }, { what: "the header and the card showing the same time left", limitMs: 3_000 });
    assert.match(agree, /\ds left/);
    assert.doesNotMatch(await running.innerText(), /expires in/, "no frozen time in the text");
    for (const width of [390, 1280, 1920]) {
      await page.setViewportSize({ width, height: 900 });
      await screenshot(page, `job-lock-${width}`);
    }

    await header.locator(".stalled-flag").waitFor(RUNS_OUT);
    assert.equal(await running.locator(".lock-left").count(), 0, "no time left once it is gone");
  });
});
