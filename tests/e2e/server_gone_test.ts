/**
 * The board's server going away and coming back, on the servers users run
 * (`Deno.serve(board.fetch)` and `board.listen`, the CLI's): the server is
 * stopped for real (the browser's own network stays up, unlike
 * `live_test.ts`'s offline context) as the CLI stops on SIGTERM, the top bar says Offline with the age
 * of what it shows, and once a server answers on the same port again the
 * page is live again by itself, and a page whose code was never loaded opens.
 */

import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { createBoard } from "../../mod.ts";
import { loadFixture } from "../helpers/fixture.ts";
import type { ServePath } from "../helpers/serve_board.ts";
import { browserTest, freshRedis, screenshot, sharedBrowser } from "./harness.ts";

/** Long enough for the page's retry timer, short of the harness's hang guard. */
const FOLLOWS = { timeout: 20_000 };

/** The top bar's statement of what is live. */
const liveness = (page: Page, text: RegExp) => page.locator(".live", { hasText: text });

/**
 * A board served on `port` (0: a free one) by `via`, stopped as the CLI
 * stops on SIGTERM: the server stops taking connections, and closing the
 * board ends the event streams its shutdown would otherwise wait for.
 */
async function serve(url: string, via: ServePath, port: number) {
  const board = createBoard(url);
  const server = via === "listen"
    ? await board.listen({ port, hostname: "127.0.0.1" })
    : Deno.serve({ hostname: "127.0.0.1", port, onListen() {} }, board.fetch);
  return {
    port: server.addr.port,
    async stop() {
      const finished = server.shutdown();
      await board.close();
      await finished;
    },
  };
}

for (const via of ["fetch", "listen"] as const) {
  browserTest(
    `${via}: the server going away shows Offline, and its return goes live again`,
    async () => {
      const redis = await freshRedis();
      await loadFixture(redis.url, { metricsAt: Date.now() });
      let server = await serve(redis.url, via, 0);
      try {
        const context = await (await sharedBrowser()).newContext({
          viewport: { width: 1280, height: 860 },
        });
        const page = await context.newPage();
        const root = `http://127.0.0.1:${server.port}/board/`;
        await page.goto(root);
        await liveness(page, /^Live$/).waitFor();
        await page.locator(".task-table tbody tr").first().waitFor();

        await server.stop();
        await liveness(page, /^Offline — showing data as of \d\d:\d\d:\d\d$/).waitFor(FOLLOWS);
        await screenshot(page, `server-gone-${via}`);
        assert.ok(
          await page.locator(".task-table tbody tr").count() > 0,
          "what it showed stays, marked as of when",
        );

        server = await serve(redis.url, via, server.port); // the board started again
        await liveness(page, /^Live$/).waitFor(FOLLOWS);
        await page.getByRole("link", { name: "Schedules" }).click();
        await page.getByText("taskora keeps only each schedule's last run").waitFor(FOLLOWS);
      } finally {
        await server.stop();
      }
    },
  );
}
