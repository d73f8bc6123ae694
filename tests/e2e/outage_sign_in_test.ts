/**
 * The on-call engineer who opens a board with session login in the middle
 * of a Redis outage: the board cannot check the session while Redis is
 * down (its revocations live there), so `/api/config` and the event stream
 * answer 503. The page still shows the shell, says Redis is unreachable, and
 * loads by itself, live, once Redis answers.
 */

import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { waitFor } from "../helpers/wait_for.ts";
import { browserTest, screenshot, signIn, withBoard } from "./harness.ts";

const auth = {
  cookiePassword: "a-test-cookie-password-of-32-chars!",
  authenticate: ({ username, password }: { username: string; password: string }) =>
    username === "ada" && password === "lovelace" ? { name: "ada" } : null,
};

/** Longest wait for what follows a change within a retry or two (a hang guard). */
const FOLLOWS = { timeout: 15_000 };

const liveness = (page: Page, text: string | RegExp) => page.locator(".live", { hasText: text });

browserTest(
  "a page opened while Redis is down on a board with login shows the shell and recovers by itself",
  async () => {
    await withBoard({ auth }, async ({ page, root, redis }) => {
      await signIn(page, root, "");
      await liveness(page, /^Live$/).waitFor();

      await redis.stop({ keepData: true });
      // The board trusts its copy of the revocations for a few seconds; then it cannot say.
      await waitFor(
        async () => (await page.request.get(`${root}api/config`)).status() === 503,
        { what: "the board to refuse to vouch for the session", everyMs: 250 },
      );
      const opened = await page.context().newPage();
      await opened.goto(root);
      await opened.locator(".sidebar nav").waitFor(FOLLOWS);
      await liveness(opened, /^Redis unreachable/).waitFor(FOLLOWS);
      await opened.locator(".stale-note").waitFor(FOLLOWS);
      for (const width of [390, 1280, 1920]) {
        await opened.setViewportSize({ width, height: 900 });
        await screenshot(opened, `outage-sign-in-${width}`);
      }

      await redis.start();
      await liveness(opened, /^Live$/).waitFor(FOLLOWS);
      await opened.locator(".counter.state-failed .counter-value", { hasText: /^5$/ })
        .waitFor(FOLLOWS);
      await opened.locator(".stale-note").waitFor({ state: "detached", ...FOLLOWS });
      assert.equal(await opened.locator(".boot").count(), 0, "no bare error box is left");
    });
  },
);
