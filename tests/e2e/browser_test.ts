import assert from "node:assert/strict";
import type { Browser } from "playwright-core";
import { BROWSER_SERVER_ENV, launchBrowser, withBrowserServer } from "./browser.ts";

/** Resolves when `browser` loses its connection (at once if it has). */
function disconnected(browser: Browser): Promise<void> {
  return browser.isConnected()
    ? new Promise((resolve) => browser.once("disconnected", () => resolve()))
    : Promise.resolve();
}

/** The browser outlives the tests' contexts, and playwright's sockets its own ops. */
const browserTest = (name: string, fn: () => Promise<void>) =>
  Deno.test({ name, sanitizeResources: false, sanitizeOps: false, fn });

browserTest("launchBrowser() in a group's run connects to the group's one browser", async () => {
  let connected: Browser | null = null;
  await withBrowserServer(async (env) => {
    connected = await launchBrowser([], env[BROWSER_SERVER_ENV]);
    const page = await connected.newPage();
    assert.equal(await page.evaluate(() => 6 * 7), 42);
  });
  // Not a browser of its own: it went with the group's, which the run ended by its pid.
  await disconnected(connected!);
  assert.equal(connected!.isConnected(), false);
});

browserTest(
  "launchBrowser() with flags of its own launches its own, in a group's run too",
  async () => {
    let own: Browser | null = null;
    await withBrowserServer(async (env) => {
      own = await launchBrowser(["--user-agent=its-own"], env[BROWSER_SERVER_ENV]);
    });
    try {
      assert.equal(own!.isConnected(), true, "it outlives the group's browser");
      const page = await own!.newPage();
      assert.equal(await page.evaluate(() => navigator.userAgent), "its-own", "its flags");
    } finally {
      await own!.close();
    }
  },
);

browserTest("withBrowserServer() kills the group's browser when the run fails", async () => {
  let endpoint = "";
  let connected: Browser | null = null;
  await assert.rejects(
    withBrowserServer(async (env) => {
      endpoint = env[BROWSER_SERVER_ENV];
      connected = await launchBrowser([], endpoint);
      throw new Error("the group failed");
    }),
    /the group failed/,
  );
  await disconnected(connected!);
  const { chromium } = await import("playwright-core");
  await assert.rejects(chromium.connect(endpoint), "nothing listens there any more");
});
