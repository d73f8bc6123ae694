/**
 * Times in a real browser, on real Redis holding the taskora fixture: the
 * relative times tick on the shared clock without asking the server again,
 * log lines carry their day when it is not today, the zone of absolute
 * times is named, and a schedule's next run is shown in its own zone.
 * The browser runs in Europe/Berlin, so its zone is not the server's (UTC).
 */

import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { connectClient } from "../helpers/redis_server.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { writeJob } from "../helpers/wire_writer.ts";
import { type BoardPage, browserTest, withBoard } from "./harness.ts";

const DAY = 86_400_000;

/** A page in Berlin time with US English dates. */
async function berlinPage({ browser }: BoardPage): Promise<Page> {
  const context = await browser.newContext({ timezoneId: "Europe/Berlin", locale: "en-US" });
  return await context.newPage();
}

browserTest("relative times tick on one clock, without a refetch", async () => {
  // No polling within the test: only the clock can change the text.
  await withBoard({ refreshInterval: 3_600_000 }, async (ctx) => {
    const client = await connectClient(ctx.redis.url);
    const id = await writeJob(client, {
      task: "send-email",
      state: "waiting",
      ts: Date.now() - 3000,
    });
    await client.close();

    const page = await berlinPage(ctx);
    await page.clock.install();
    const reads: string[] = [];
    page.on("request", (request) => {
      if (/\/api\/(?!events)/.test(request.url())) reads.push(request.url());
    });
    await page.goto(`${ctx.root}tasks/send-email?state=waiting`);
    const created = page.getByRole("row", { name: new RegExp(id) }).locator("time").first();
    await created.filter({ hasText: /^\d+s ago$/ }).waitFor();
    const before = reads.length;

    await page.clock.fastForward("01:00");
    await created.filter({ hasText: /^1m(?: \d+s)? ago$/ }).waitFor();
    await page.clock.fastForward("30:00");
    await created.filter({ hasText: /^31m(?: \d+s)? ago$/ }).waitFor();
    assert.deepEqual(reads.slice(before), [], "the text changed with no request to the API");
    assert.match(await created.getAttribute("title") ?? "", / UTC\+01:00$/, "the zone is named");
  });
});

browserTest("log lines show their day when it is not today, and the zone", async () => {
  await withBoard({}, async (ctx) => {
    const client = await connectClient(ctx.redis.url);
    const now = Date.now();
    const id = await writeJob(client, { task: "send-email", state: "waiting", ts: now - 2 * DAY });
    const line = (message: string, timestamp: number) =>
      JSON.stringify({ level: "info", message, timestamp });
    await client.sendCommand([
      "RPUSH",
      `taskora:{send-email}:${id}:logs`,
      line("queued long ago", now - 2 * DAY),
      line("still here", now),
    ]);
    await client.close();

    const page = await berlinPage(ctx);
    await page.goto(`${ctx.root}jobs/${id}`);
    await page.getByRole("tab", { name: /Logs/ }).click();
    const time = (message: string) =>
      page.getByRole("row", { name: new RegExp(message) }).locator("time").textContent();
    const old = new Intl.DateTimeFormat("en-US", {
      timeZone: "Europe/Berlin",
      month: "short",
      day: "numeric",
    }).format(now - 2 * DAY);
    assert.match(
      await time("queued long ago") ?? "",
      new RegExp(`^${old}, \\d\\d:\\d\\d:\\d\\d\\.\\d{3}`),
    );
    assert.match(await time("still here") ?? "", /^\d\d:\d\d:\d\d\.\d{3}( [AP]M)?$/);
    assert.match(
      await page.getByRole("columnheader", { name: /^Time/ }).textContent() ?? "",
      /^Time \(UTC\+0[12]:00\)$/,
    );
  });
});

browserTest("a schedule's next run is shown in its own time zone, named", async () => {
  await withBoard({}, async (ctx) => {
    const put = await fetch(`${ctx.root}api/schedules/nightly-report`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ timezone: "Asia/Tokyo" }),
    });
    assert.equal(put.status, 200, await put.text());

    const page = await berlinPage(ctx);
    await page.goto(`${ctx.root}schedules`);
    const next = page.locator("tbody tr", { hasText: "nightly-report" }).locator(
      ".schedule-next-at",
    );
    assert.match(
      await next.textContent() ?? "",
      /, 03:00:00 AM Asia\/Tokyo \(UTC\+09:00\)$/,
      "0 3 * * * in Tokyo is 03:00 there, whatever the browser's zone",
    );
  });
});

browserTest(
  "the oldest waiting age grows while it waits, with no read: task page and overview",
  async () => {
    // No backstop read within the test: only the clock moves the figure.
    await withBoard({ refreshInterval: 3_600_000 }, async ({ page, root, redis }) => {
      const client = await connectClient(redis.url);
      await writeJob(client, { task: "stuck-queue", state: "waiting", ts: Date.now() - 3000 });
      await client.close();
      await page.clock.install();
      const reads: string[] = [];
      page.on("request", (request) => {
        if (/\/api\/(?!events)/.test(request.url())) reads.push(request.url());
      });
      await page.goto(`${root}tasks/stuck-queue`);
      const oldest = page.locator(".card", { hasText: "Latency" }).locator("dl.facts > div", {
        hasText: "Oldest waiting",
      });
      await oldest.filter({ hasText: /\d\.\d s/ }).waitFor();
      // The job list (first on the page) reads its jobs once, maybe after the card: let it.
      await waitFor(() => reads.some((url) => url.includes("/jobs?state=waiting")), {
        what: "the job list's first read",
      });
      let before = reads.length;

      await page.clock.fastForward("01:00");
      await oldest.filter({ hasText: /1m(?: \d+s)?/ }).waitFor();
      assert.deepEqual(reads.slice(before), [], "the age grew with no request to the API");

      // The overview's row says the same.
      await page.goto(root);
      await page.locator(".latency-age", { hasText: /oldest waiting/ }).waitFor();
      before = reads.length;
      await page.clock.fastForward("02:00");
      await page.locator(".latency-age", { hasText: /oldest waiting [23]m(?: \d+s)?/ }).waitFor();
      assert.deepEqual(reads.slice(before), [], "the row's age grew with no request to the API");
    });
  },
);
