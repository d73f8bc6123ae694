/**
 * Issue 11 in a real browser: a page on a sibling origin cannot make
 * Chromium change the board, and a page whose session expires goes back to
 * the login form by itself.
 */

import assert from "node:assert/strict";
import { connectClient } from "../helpers/redis_server.ts";
import { browserTest, signIn, withBoard } from "./harness.ts";

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

browserTest("when the session expires the live page goes to the login form", async () => {
  const auth = {
    cookiePassword: "a-test-cookie-password-of-32-chars!",
    sessionTtl: 4000,
    authenticate: () => ({ name: "Ada" }),
  };
  // Polling once an hour: only the event stream can notice the session ended.
  await withBoard({ auth, refreshInterval: 3_600_000 }, async ({ page, root }) => {
    await signIn(page, root, "dlq");
    await page.locator(".topbar").filter({ hasText: "Live" }).waitFor();
    // The stream ends at the expiry (4 s), the reconnect (3 s later) is refused.
    await page.waitForURL("**/board/login?redirect=%2Fboard%2Fdlq", { timeout: 15_000 });
  });
});
