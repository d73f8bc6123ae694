/**
 * "Why is it waiting?" in a real browser, with a real taskora App on the
 * board's Redis: a job held by its concurrency key (limit 1, the key's
 * other job running) shows the reason, its evidence and a link to the job
 * holding the key; when that job ends and the held one runs, the card
 * follows the state change; a finished job has no card. A job whose early
 * events the stream cap trimmed says so on its timeline. Screenshots at
 * 390, 1280 and 1920 px (with `SCREENSHOTS=1`).
 */

// deno-lint-ignore-file no-explicit-any
import assert from "node:assert/strict";
import { growPastStreamCap } from "../helpers/stream_cap.ts";
import { createTaskora, redisAdapter } from "../../../shared/taskora/taskora.js";
import { waitFor } from "../helpers/wait_for.ts";
import { withClient } from "../helpers/redis_server.ts";
import { writeJob } from "../helpers/wire_writer.ts";
import { browserTest, quickDiscovery, screenshot, withBoard } from "./harness.ts";

browserTest("the job page says why a job waits, and follows it as it runs", async () => {
  // The page follows perkey's events from the board's look after it appeared: 100 ms, not 5 s.
  await withBoard({ source: quickDiscovery }, async ({ page, redis, root }) => {
    const app: any = createTaskora({ adapter: redisAdapter(redis.url) });
    const releases: (() => void)[] = [];
    const perkey = app.task("perkey", {
      concurrency: 2,
      handler: () => new Promise((resolve) => releases.push(() => resolve("done"))),
    });
    await app.start();
    try {
      const options = { concurrencyKey: "acct-1", concurrencyLimit: 1 };
      const first = await perkey.dispatch({ n: 1 }, options);
      await waitUntil(() => releases.length === 1);
      const held = await perkey.dispatch({ n: 2 }, options);

      await page.goto(`${root}jobs/${held}`);
      const card = page.locator("section.card", { hasText: "Why is it waiting?" });
      const reason = card.locator('li[data-code="concurrencyKey"]');
      await reason.waitFor();
      const text = (await reason.textContent())!.replace(/\s+/g, " ");
      assert.match(
        text,
        new RegExp(`its concurrency key is at its limit: 1 of 1, used by ${first}`),
      );
      assert.match(text, /key ?acct-1/i);
      assert.equal(
        await reason.getByRole("link", { name: `Open job ${first.slice(0, 8)}` }).getAttribute(
          "href",
        ),
        `jobs/${first}`,
      );
      for (const width of [390, 1280, 1920]) {
        await page.setViewportSize({ width, height: 900 });
        await screenshot(page, `diagnosis-${width}`);
      }

      releases.shift()!(); // the holder completes; the held job takes the key and runs
      await page.locator("section.card", { hasText: "Why is it still running?" })
        .locator('li[data-code="running"]').waitFor();
      releases.shift()!();
      await page.getByText("Completed", { exact: true }).first().waitFor();
      await page.locator("section.card", { hasText: /Why is it/ }).waitFor({ state: "detached" });
    } finally {
      releases.forEach((release) => release());
      await app.close();
    }
  });
});

browserTest("a job whose early events were trimmed says so on its timeline", async () => {
  await withBoard({}, async ({ page, redis, root }) => {
    const app: any = createTaskora({ adapter: redisAdapter(redis.url) });
    const busy = app.task("busy", { handler: (d: any) => d.n });
    await app.start();
    try {
      const id = await busy.dispatch({ n: 1 });
      await busy.dispatch({ n: 1 }).result;
      await growPastStreamCap(redis.url, "busy");
      await page.goto(`${root}jobs/${id}`);
      const note = page.getByRole("note").filter({ hasText: "trimmed by taskora's stream cap" });
      await note.waitFor();
      assert.match((await note.textContent())!, /^\s*Events before .* were trimmed/);
      for (const width of [390, 1280, 1920]) {
        await page.setViewportSize({ width, height: 900 });
        await screenshot(page, `trimmed-timeline-${width}`);
      }
    } finally {
      await app.close();
    }
  });
});

/** Waits for a condition of the test's own App (its handlers), not for the wall clock. */
async function waitUntil(condition: () => boolean): Promise<void> {
  await waitFor(() => condition() || undefined, { what: "the App's worker to take the job" });
}

browserTest(
  "the diagnosis says when it was read, and a failed read is not shown as still reading",
  async () => {
    await withBoard({}, async ({ page, root }) => {
      const tasks = (await (await fetch(`${root}api/overview`)).json()).tasks as {
        name: string;
        stats: { delayed: number };
      }[];
      const task = tasks.find((t) => t.stats.delayed > 0)!.name;
      const [job] = await (await fetch(`${root}api/tasks/${task}/jobs?state=delayed`)).json();
      const card = page.locator("section.card", {
        has: page.getByRole("heading", { name: "Why is it waiting?" }),
      });

      await page.goto(`${root}jobs/${job.id}`);
      await card.locator(".diagnosis").waitFor();
      assert.match(await card.locator(".card-head").innerText(), /read (now|\d+s ago)/);

      await page.route(/\/diagnosis$/, (route) =>
        route.fulfill({
          status: 503,
          contentType: "application/json",
          body: JSON.stringify({ error: "Redis is unreachable", code: "STORE_UNAVAILABLE" }),
        }));
      await page.reload();
      await card.getByRole("alert").waitFor();
      assert.doesNotMatch(await card.innerText(), /Reading what holds it/);
    });
  },
);

browserTest("the noWorker evidence shows times as times, not epoch milliseconds", async () => {
  await withBoard({}, async ({ page, redis, root }) => {
    const id = await withClient(redis.url, async (client) => {
      const waiting = await writeJob(client, { task: "unattended", state: "waiting" });
      // The task's stream holds an event, but none of a worker taking a job.
      await client.xAdd("taskora:{unattended}:events", "*", { event: "waiting", jobId: waiting });
      return waiting;
    });
    await page.goto(`${root}jobs/${id}`);
    const reason = page.locator('li[data-code="noWorker"]');
    await reason.waitFor();
    const text = (await reason.innerText()).replace(/\s+/g, " ");
    assert.doesNotMatch(text, /\d{12,}/, `no raw epoch in "${text}"`);
    assert.match(text, /events since (now|\d+s ago) open task/i);
    for (const width of [390, 1280, 1920]) {
      await page.setViewportSize({ width, height: 900 });
      await screenshot(page, `diagnosis-no-worker-${width}`);
    }
  });
});
