/**
 * Issue 11 in a real browser: a page on a sibling origin cannot make
 * Chromium change the board, and a page whose session expires goes back to
 * the login form by itself.
 */

import assert from "node:assert/strict";
import { createBoardOn } from "../../src/board.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { loadFixture } from "../helpers/fixture.ts";
import { connectClient } from "../helpers/redis_server.ts";
import { withClock } from "../helpers/session_board.ts";
import { waitFor } from "../helpers/wait_for.ts";
import {
  browserTest,
  freshRedis,
  serveTestBoard,
  sharedBrowser,
  signIn,
  withBoard,
} from "./harness.ts";

/** A page that posts an auto-submitted form with no fields (an empty body) to `action`. */
function attackerPage(action: string): string {
  return `<!doctype html><form method="post" action="${action}"></form>
    <script>document.forms[0].submit()</script>`;
}

browserTest("an auto-submitted form on a sibling origin changes nothing (403)", async () => {
  await withBoard({}, async ({ page, root, redis }) => {
    const client = await connectClient(redis.url);
    // Another port of the same host: another origin of the same site, as in the report.
    let action = "";
    const attacker = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen() {} },
      () => new Response(attackerPage(action), { headers: { "content-type": "text/html" } }),
    );
    try {
      const failed = () => client.sendCommand(["ZCARD", "taskora:{send-email}:failed"]);
      const paused = () => client.sendCommand(["ZSCORE", "taskora:schedules:next", "heartbeat"]);
      const before = { failed: await failed(), paused: await paused() };
      assert.equal(before.failed, 5);
      for (const path of ["api/tasks/send-email/retry-all", "api/schedules/heartbeat/pause"]) {
        action = `${root}${path}`;
        const answer = page.waitForResponse((response) => response.url() === action);
        await page.goto(`http://127.0.0.1:${attacker.addr.port}/`);
        const response = await answer;
        assert.equal(response.status(), 403, path);
        assert.equal((await response.json()).code, "CROSS_ORIGIN");
      }
      assert.deepEqual({ failed: await failed(), paused: await paused() }, before);
    } finally {
      await attacker.shutdown();
      await client.close();
    }
  });
});

/**
 * The session's lifetime, which the test moves the board's clock past. Long beside the test's wall
 * time: the browser keeps the cookie that long by its own clock, a real one.
 */
const SESSION_MS = 300_000;

browserTest("when the session expires the live page goes to the login form", async () => {
  const redis = await freshRedis();
  const start = Date.now();
  await loadFixture(redis.url, { at: start, metricsAt: start });
  // The board's clock is the test's: the session ends when the test moves it, however long the
  // sign-in took (a real 4 s lifetime could end before the page was live on a loaded machine).
  const timers = new FakeTimers();
  const auth = {
    cookiePassword: "a-test-cookie-password-of-32-chars!",
    sessionTtl: SESSION_MS,
    authenticate: () => ({ name: "Ada" }),
  };
  // Polling once an hour: only the event stream can notice the session ended.
  const board = createBoardOn(timers, redis.url, { auth, refreshInterval: 3_600_000 });
  const server = await serveTestBoard(board);
  const page = await (await sharedBrowser()).newPage();
  try {
    await withClock(start, async (advance) => {
      await signIn(page, `${server.url}/board/`, "dlq");
      const live = page.locator(".topbar").filter({ hasText: "Live" });
      // The stream's first frame is sent at a turn of the board's timers.
      await waitFor(async () => (await timers.tick(0), await live.isVisible()), {
        what: "the page to be live",
      });
      advance(SESSION_MS);
      await timers.tick(SESSION_MS);
      // The stream ended at the expiry; the browser's reconnect, after the board's retry hint, is
      // refused.
      await page.waitForURL("**/board/login?redirect=%2Fboard%2Fdlq");
    });
  } finally {
    await page.context().close(); // its event stream would hold up the server's shutdown
    await server.stop();
    await board.close();
  }
});
