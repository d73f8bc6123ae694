/**
 * The job page of an active job states its lock once: the header's Lock and
 * the "Why is it still running?" card read the same reading on the same
 * clock, so they count down together and, when the worker dies and the lock
 * runs out, both say so at once (they disagreed for 20 s: one said "expires
 * in 25 s", the other counted down).
 *
 * The page's clock is the test's (`page.clock`): the lock outlasts any page
 * load, then runs out in Redis and on the page's count when the test says. A
 * lock of 4 s on the wall clock ran out before a loaded machine (load ~30)
 * had drawn the page, and the test waited for a time left that never showed.
 */

import assert from "node:assert/strict";
import { withClient } from "../helpers/redis_server.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { writeJob } from "../helpers/wire_writer.ts";
import { browserTest, screenshot, withBoard } from "./harness.ts";

/** The worker's lock: long enough that the page has read it, whatever the machine's load. */
const LOCK_MS = 120_000;

/** Where taskora keeps the lock of `job`, of the task `locked`. */
function lockKey(job: string): string {
  return `taskora:{locked}:${job}:lock`;
}

browserTest("the header's lock and the diagnosis card agree, and go stalled together", async () => {
  await withBoard({}, async ({ page, root, redis }) => {
    // A worker's lock, never renewed: its worker is gone. Redis expires it by itself.
    const id = await withClient(redis.url, async (client) => {
      const active = await writeJob(client, { task: "locked", state: "active" });
      await client.sendCommand(["SET", lockKey(active), "tok-1", "PX", String(LOCK_MS)]);
      return active;
    });
    await page.clock.install();
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
    }, { what: "the header and the card showing the same time left" });
    assert.match(agree, /\d[sm] left/);
    assert.doesNotMatch(await running.innerText(), /expires in/, "no frozen time in the text");
    for (const width of [390, 1280, 1920]) {
      await page.setViewportSize({ width, height: 900 });
      await screenshot(page, `job-lock-${width}`);
    }

    // The worker never renewed it: Redis lets it lapse, and the page's count runs out with it.
    await withClient(redis.url, (client) => client.sendCommand(["PEXPIRE", lockKey(id), "1"]));
    await page.clock.fastForward(LOCK_MS);
    await header.locator(".stalled-flag").waitFor();
    assert.equal(await running.locator(".lock-left").count(), 0, "no time left once it is gone");
  });
});
