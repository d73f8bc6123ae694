/**
 * A just-started board whose first read of every task outlasts a page's
 * wait for it answers `GET /overview` with 503 `COUNTING` and
 * `Retry-After`: in a real browser, on real Redis holding the taskora
 * fixture, the overview then says it is counting (no error), asks again by
 * itself when the answer said, and lists the tasks once the count is done.
 *
 * The board runs on fake timers, so the test moves its clock past the wait
 * while the change feed's read of every task is held; the page's clock is
 * the test's too, so its ask again happens when the test moves it.
 * Screenshots at 390, 1280 and 1920 px with `SCREENSHOTS=1`.
 */

import assert from "node:assert/strict";
import { createBoardOn } from "../../src/board.ts";
import { FIRST_PASS_WAIT_MS } from "../../src/feed/live_read.ts";
import { RedisTaskSource } from "../../src/source/redis/mod.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { loadFixture } from "../helpers/fixture.ts";
import { renewalsInFlight } from "../helpers/lease_renewals.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { browserTest, freshRedis, screenshot, serveTestBoard, sharedBrowser } from "./harness.ts";

/** Steps of the board's clock, ms: shorter than a lease turn, each renewal answered before the next. */
const STEP_MS = 1_000;

browserTest(
  "a board still counting every task says so on the overview, asks again by itself, then lists them",
  async () => {
    const redis = await freshRedis();
    await loadFixture(redis.url, { at: Date.now(), metricsAt: Date.now() });
    const timers = new FakeTimers();
    const source = new RedisTaskSource({ url: redis.url, commandTimeoutMs: 30_000 }, timers);
    // Every read of the tasks' counts (the feed's first pass, a stats frame's) holds until the
    // test lets them go: a first pass longer than a page waits for it.
    const read = source.getQueueSnapshots.bind(source);
    const counted = Promise.withResolvers<void>();
    let reads = 0;
    source.getQueueSnapshots = async (tasks) => {
      reads++;
      const snapshots = await read(tasks);
      await counted.promise;
      return snapshots;
    };
    // The lease renewals answer while the clock moves, as Redis does within a second.
    const renewing = renewalsInFlight(source.boardStore);
    const board = createBoardOn(timers, source, { history: false });
    const server = await serveTestBoard(board);
    const page = await (await sharedBrowser()).newPage({ viewport: { width: 1360, height: 860 } });
    const overviews: number[] = [];
    page.on("response", (response) => {
      if (new URL(response.url()).pathname.endsWith("/api/overview")) {
        overviews.push(response.status());
      }
    });
    try {
      await page.clock.install();
      await page.goto(`${server.url}/board/`);
      await waitFor(() => reads > 0, { what: "the first read of every task" });
      const list = page.locator(".card", { hasText: "Tasks" });
      const counting = list.getByRole("status").filter({ hasText: "Counting tasks…" });
      const failed = page.locator(".banner-error");
      // Past the page's wait for the first pass (the request came in at some step of it).
      for (let ms = 0; overviews.length === 0 && ms <= 3 * FIRST_PASS_WAIT_MS; ms += STEP_MS) {
        await timers.tick(STEP_MS);
        await waitFor(() => renewing() === 0, { what: "the lease renewal" });
      }
      assert.deepEqual(overviews, [503], "the overview answered COUNTING");
      await counting.or(failed).first().waitFor();
      assert.equal(await failed.count(), 0, "no error is shown");
      assert.ok(await counting.isVisible(), "the task list says the board is counting");
      for (const width of [390, 1280, 1920]) {
        await page.setViewportSize({ width, height: 900 });
        await screenshot(page, `counting-${width}`);
      }

      counted.resolve();
      await waitFor(async () => await source.boardStore.feed!.readLiveSummary() !== null, {
        what: "the first pass's live state",
      });
      assert.equal(overviews.length, 1, "nothing asked again before the answer's Retry-After");
      await page.clock.runFor(2_000);
      await list.locator(".task-table tbody tr").first().waitFor();
      assert.deepEqual(overviews, [503, 200]);
      assert.equal(await counting.count(), 0);
      assert.equal(await failed.count(), 0);
      await screenshot(page, "counting-done-1920");
    } finally {
      counted.resolve();
      await page.context().close(); // its event stream would hold up the server's shutdown
      await server.stop();
      await board.close();
      await source.close();
    }
  },
);
