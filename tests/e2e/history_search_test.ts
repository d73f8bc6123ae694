/**
 * The history search in a real browser, on a board with the history on
 * (Redis) and a real taskora 0.5.0 worker keeping a failed job one second:
 * once taskora removed the job, the job-ID box's "History" opens the search,
 * which finds the job by its error text, across every task, as a history
 * row linking to its archived page; the search's export links carry the
 * filters. With `SCREENSHOTS=1`, screenshots at 390, 1280 and 1920 px.
 */

// deno-lint-ignore-file no-explicit-any
import assert from "node:assert/strict";
import { createTaskora, redisAdapter } from "../../../shared/taskora/taskora.js";
import { RedisConnection } from "../../src/source/redis/client.ts";
import { createRedisSource } from "../../src/source/redis/mod.ts";
import { taskKeys } from "../../src/source/wire/keys.ts";
import { createRedisHistoryStore } from "../../src/store/redis/history/store.ts";
import { withClient } from "../helpers/redis_server.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { browserTest, quickDiscovery, screenshot, withBoard } from "./harness.ts";

browserTest("the history search finds a job taskora removed by its error text", async () => {
  // The recorder follows refund-order from the board's look after it appeared: 100 ms, not 5 s.
  const options = { history: true, source: quickDiscovery };
  await withBoard(options, async ({ page, redis, root, board }) => {
    const app: any = createTaskora({
      adapter: redisAdapter(redis.url),
      retention: { failed: { maxAge: "1s" } },
    });
    const refund = app.task("refund-order", {
      retry: { attempts: 1 },
      // taskora trims what it keeps on its stall check: every 100 ms here.
      stall: { interval: 100, maxCount: 50 },
      handler: (data: { fail: boolean }, ctx: { heartbeat(): void }) => {
        ctx.heartbeat();
        if (data.fail) throw new Error("payment gateway refused refund");
        return "refunded";
      },
    });
    await app.start();
    try {
      /** Whether the history holds job `id`. */
      const recorded = async (id: string) => {
        const answer = await board.fetch(
          new Request(`http://localhost/board/api/history/tasks/refund-order/jobs/${id}`),
        );
        await answer.body?.cancel();
        return answer.status === 200;
      };
      // The recorder reads a failed job's error from the job, which taskora keeps one second:
      // the failing job is dispatched once the recorder is seen recording.
      const first = String(await refund.dispatch({ fail: false }));
      await waitFor(() => recorded(first), { what: "the board's recorder to start" });
      const id = String(await refund.dispatch({ fail: true }));
      await waitFor(() => recorded(id), { what: "the board's recorder to keep the failed job" });
      await withClient(redis.url, (client) =>
        waitFor(
          async () =>
            Number(await client.exists(`${taskKeys("refund-order").jobPrefix}${id}`)) === 0,
          { what: "taskora's retention to remove the failed job" },
        ));

      await page.goto(root);
      await page.locator(".topbar").getByRole("link", { name: "History" }).click();
      const search = page.getByRole("search", { name: "Search the history" });
      await search.waitFor();
      // The sidebar has the page's own link, and marks it (it marked Tasks).
      const marked = page.getByRole("navigation", { name: "Main" }).locator("[aria-current=page]");
      assert.equal((await marked.textContent())?.trim(), "History");
      const error = search.getByLabel("Error contains");
      await error.fill("GATEWAY REFUSED");
      await error.press("Tab"); // a text filter applies when left
      // The unfiltered page lists the job too: the search is done when the page holds one row.
      // (The search replaces the URL in place: no load event for waitForURL to wait on.)
      await page.waitForFunction(() =>
        location.search === "?error=GATEWAY+REFUSED" &&
        document.querySelectorAll(".history-table tbody tr").length === 1
      );
      const row = page.locator(".history-table tbody tr").filter({
        has: page.getByRole("link", { name: id }),
      });
      await row.waitFor();
      const text = (await row.textContent())!.replace(/\s+/g, " ");
      assert.match(text, /History/, "marked a history row");
      assert.match(text, /refund-order/);
      assert.match(text, /failed/);
      assert.match(text, /payment gateway refused refund/);
      assert.equal(await page.locator(".history-table tbody tr").count(), 1, "only that job");
      const csv = page.getByRole("group", { name: /^Export/ }).getByRole("link", { name: "CSV" });
      assert.match((await csv.getAttribute("href"))!, /history\/jobs\/export\?error=GATEWAY/);
      for (const width of [390, 1280, 1920]) {
        await page.setViewportSize({ width, height: 900 });
        await screenshot(page, `history-search-${width}`);
      }

      await page.setViewportSize({ width: 1280, height: 900 });
      await row.getByRole("link", { name: id }).click();
      await page.getByRole("note").filter({ hasText: /^Archived/ }).waitFor();
      assert.match(page.url(), new RegExp(`jobs/${id}$`));
    } finally {
      await app.close();
    }
  });
});

browserTest("the history page says when a cap dropped older jobs, and not before", async () => {
  // Under a key prefix of its own, the board records none of the fixture's jobs: only these.
  await withBoard({
    history: true,
    source: (redis) => createRedisSource({ url: redis.url, prefix: "capped" }),
  }, async ({ page, redis, root }) => {
    const connection = new RedisConnection({ url: redis.url });
    try {
      await connection.ready();
      const history = createRedisHistoryStore({
        connection,
        prefix: "capped",
        limits: { maxSummaries: 2 },
      });
      const ended = Date.now() - 3_600_000;
      const keep = (n: number) =>
        history.write({
          entries: [{
            task: "send-email",
            id: `mail-${n}`,
            event: `${ended + n * 60_000}-0`,
            attempt: 1,
            outcome: "completed",
            version: 1,
            createdAt: ended + n * 60_000 - 1_000,
            startedAt: ended + n * 60_000 - 500,
            endedAt: ended + n * 60_000,
            error: null,
            errorShape: null,
          }],
        });
      await keep(1);
      await keep(2);
      await page.goto(`${root}history`);
      await page.locator(".history-table tbody tr").nth(1).waitFor();
      assert.equal(await page.locator(".history-capped").count(), 0, "no cap said before one");

      await keep(3); // a cap of 2: mail-1 goes
      await page.reload();
      const note = page.getByRole("note").filter({ hasText: /cap dropped/ });
      await note.waitFor();
      assert.match(
        (await note.textContent())!.replace(/\s+/g, " "),
        /holds only the newest jobs: its cap dropped 1 older job, the newest of them ended 5\dm(?: \d+s)? ago\. It is whole after that\./,
      );
      for (const width of [390, 1280, 1920]) {
        await page.setViewportSize({ width, height: 900 });
        await screenshot(page, `history-capped-${width}`);
        // Chromium's date and time input needs about 190 px to show "mm/dd/yyyy, --:-- --".
        for (const label of ["Ended from", "Ended before"]) {
          const box = await page.getByLabel(label).boundingBox();
          assert.ok(box!.width >= 190, `${label} at ${width} px is ${box!.width} px wide`);
        }
      }
    } finally {
      await connection.close();
    }
  });
});

browserTest("a filter typed and not yet applied stays while the page draws again", async () => {
  await withBoard({ history: true }, async ({ page, root }) => {
    await page.goto(`${root}history`);
    const search = page.getByRole("search", { name: "Search the history" });
    const error = search.getByLabel("Error contains");
    await error.fill("refused");
    // A select applies at once: the page draws again, as it does at every stats frame and answer.
    await search.getByLabel("State").selectOption("failed");
    await page.waitForFunction(() =>
      new URLSearchParams(location.search).get("state") === "failed"
    );
    assert.equal(await error.inputValue(), "refused", "the typing is still there");
    await error.press("Tab");
    await page.waitForFunction(() => {
      const query = new URLSearchParams(location.search);
      return query.get("state") === "failed" && query.get("error") === "refused";
    });
  });
});
