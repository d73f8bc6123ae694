/**
 * Where the job page names the scheduler leader, in a real browser on real
 * Redis holding the taskora fixture: on the job a schedule created (the
 * `heartbeat` schedule's last run, `49e833ba…`), with the schedule's name,
 * and on no other job.
 */

import assert from "node:assert/strict";
import { browserTest, withBoard } from "./harness.ts";

const HEARTBEAT_RUN = "49e833ba-6ef4-41a3-9c4a-827a99ffcd1b";
const ACTIVE_TRANSCODE = "d8e1df37-39dd-4863-9508-f7c9bd517880";
/** The leader line in any of its forms (a leader, none, not known). */
const LEADER = /Scheduler leader|No scheduler leads/;

browserTest("a job a schedule created names the schedule and the scheduler leader", async () => {
  await withBoard({}, async ({ page, root }) => {
    await page.goto(`${root}jobs/${HEARTBEAT_RUN}`);
    const note = page.locator(".detail-head .job-note", { hasText: LEADER });
    await note.waitFor();
    assert.match(await note.textContent() ?? "", /Run of schedule heartbeat/);
    assert.equal(
      await note.getByRole("link", { name: "heartbeat" }).getAttribute("href"),
      "schedules",
    );
  });
});

browserTest("a job no schedule created says nothing of the scheduler", async () => {
  await withBoard({}, async ({ page, root }) => {
    // The page asks which schedule ran the job; only the answer tells it says nothing.
    const schedulesRead = page.waitForResponse(
      (response) => new URL(response.url()).pathname.endsWith("/api/schedules"),
      { timeout: 10_000 },
    );
    await page.goto(`${root}jobs/${ACTIVE_TRANSCODE}`);
    const head = page.locator(".detail-head");
    await head.getByText("transcode").first().waitFor();
    await (await schedulesRead).finished();
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
    assert.equal(await head.getByText(LEADER).count(), 0);
  });
});
