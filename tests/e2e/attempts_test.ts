/**
 * The Attempts tab in a real browser, on Redis, over the stream entries
 * taskora 0.5.0 writes for a job that failed 3 of 3 tries: attempts 1, 2
 * and 3 in order, the retried ones saying their error was not kept, the
 * last one with the job's error. Screenshots at 390, 1280 and 1920 px
 * under /tmp/queue-board-attempts/.
 */

import assert from "node:assert/strict";
import { taskKeys } from "../../src/source/wire/keys.ts";
import { connectClient } from "../helpers/redis_server.ts";
import { writeJob } from "../helpers/wire_writer.ts";
import { browserTest, screenshot, withBoard } from "./harness.ts";

browserTest(
  "the Attempts tab shows a job's attempts 1..n in order, the last with the job's error",
  async () => {
    await withBoard({}, async ({ page, redis, root }) => {
      const client = await connectClient(redis.url);
      let id: string;
      try {
        const created = Date.now() - 60_000;
        id = await writeJob(client, {
          task: "send-email",
          state: "failed",
          ts: created,
          attempt: 3,
          maxAttempts: 3,
          error: "SMTP timeout after 30 s",
          finishedOn: created + 3_000,
        });
        const events = taskKeys("send-email").events;
        // Only this job's entries: the writer's own (dispatch, failure) are replaced.
        await client.del(events);
        const xadd = (at: number, fields: string[]) =>
          client.sendCommand(["XADD", events, `${at}-0`, "event", ...fields, "jobId", id]);
        // As taskora's fail script writes them: a retrying entry names the next attempt.
        for (const next of [2, 3]) {
          const at = created + (next - 1) * 1_000;
          await xadd(at, ["retrying", "attempt", String(next), "nextAttemptAt", String(at + 500)]);
        }
        await xadd(created + 3_000, ["failed"]);
      } finally {
        client.destroy();
      }

      await page.goto(`${root}jobs/${id}`);
      await page.getByRole("tab", { name: /Attempts/ }).click();
      const items = page.locator("ol.attempts > li");
      await items.nth(2).waitFor();
      const texts = (await items.allTextContents()).map((text) => text.replace(/\s+/g, " ").trim());
      assert.equal(texts.length, 3);
      assert.match(texts[0], /^Attempt 1 · failed, retried · .*\(not recorded: taskora keeps only/);
      assert.match(texts[1], /^Attempt 2 · failed, retried · .*\(not recorded: taskora keeps only/);
      assert.match(texts[2], /^Attempt 3 · failed for good · .*SMTP timeout after 30 s$/);

      for (const width of [390, 1280, 1920]) {
        await page.setViewportSize({ width, height: 900 });
        await screenshot(page, `attempts-${width}`);
      }
    });
  },
);
