/**
 * The Attempts tab in a real browser, on Redis, over the stream entries
 * taskora 0.5.0 writes for a job that failed 3 of 3 tries: attempts 1, 2
 * and 3 in order, the retried ones saying their error was not kept, the
 * last one with the job's error; and for a job taskora's stall check ran
 * again after it completed, "Ran 2×" with both runs and what put it back.
 * Screenshots at 390, 1280 and 1920 px under /tmp/queue-board-attempts/.
 */

import assert from "node:assert/strict";
import { taskKeys } from "../../src/source/wire/keys.ts";
import { connectClient } from "../helpers/redis_server.ts";
import { type WireJob, writeJob } from "../helpers/wire_writer.ts";
import { browserTest, screenshot, withBoard } from "./harness.ts";

/** A job as `job` writes it, whose task's stream then holds only the entries `entries` adds. */
async function jobWithEntries(
  url: string,
  job: WireJob,
  entries: (xadd: (at: number, fields: string[]) => Promise<unknown>) => Promise<void>,
): Promise<string> {
  const client = await connectClient(url);
  try {
    const id = await writeJob(client, job);
    const events = taskKeys(job.task).events;
    // Only this job's entries: the writer's own (dispatch, finish) are replaced.
    await client.del(events);
    await entries((at, fields) =>
      client.sendCommand(["XADD", events, `${at}-0`, "event", ...fields, "jobId", id])
    );
    return id;
  } finally {
    client.destroy();
  }
}

browserTest(
  "the Attempts tab shows a job's attempts 1..n in order, the last with the job's error",
  async () => {
    await withBoard({}, async ({ page, redis, root }) => {
      const created = Date.now() - 60_000;
      const job: WireJob = {
        task: "send-email",
        state: "failed",
        ts: created,
        attempt: 3,
        maxAttempts: 3,
        error: "SMTP timeout after 30 s",
        finishedOn: created + 3_000,
      };
      const id = await jobWithEntries(redis.url, job, async (xadd) => {
        // As taskora's fail script writes them: a retrying entry names the next attempt.
        for (const next of [2, 3]) {
          const at = created + (next - 1) * 1_000;
          await xadd(at, ["retrying", "attempt", String(next), "nextAttemptAt", String(at + 500)]);
        }
        await xadd(created + 3_000, ["failed"]);
      });

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

browserTest(
  "the Attempts tab says a job ran twice when taskora's stall check put it back after it completed",
  async () => {
    await withBoard({}, async ({ page, redis, root }) => {
      const created = Date.now() - 60_000;
      const job: WireJob = { task: "report", state: "completed", ts: created };
      const id = await jobWithEntries(redis.url, job, async (xadd) => {
        // As taskora 0.5.0 writes them for inventory.sync: completed → stalled → active → completed.
        await xadd(created, ["waiting"]);
        await xadd(created + 100, ["active", "attempt", "1"]);
        await xadd(created + 900, ["completed"]);
        await xadd(created + 30_000, ["stalled", "count", "1", "action", "recovered"]);
        await xadd(created + 30_050, ["active", "attempt", "1"]);
        await xadd(created + 30_800, ["completed"]);
      });

      await page.goto(`${root}jobs/${id}`);
      await page.getByRole("tab", { name: /Attempts/ }).click();
      await page.locator(".runs-flag", { hasText: "Ran 2×" }).waitFor();
      const runs = (await page.locator("ol.run-list > li").allTextContents())
        .map((text) => text.replace(/\s+/g, " ").trim());
      assert.equal(runs.length, 2);
      assert.match(
        runs[0],
        /^Run 1 · started .* · completed .*Then taskora's stall check put it back/,
      );
      assert.match(runs[1], /^Run 2 · started .* · completed/);
      assert.doesNotMatch(runs[1], /stall check/, "the last run stands");
      assert.equal(await page.locator("ol.attempts > li").count(), 0, "no attempt failed");
      await screenshot(page, "attempts-ran-twice");
    });
  },
);
