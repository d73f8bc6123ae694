/**
 * Debian's headless Chromium driven by playwright-core, with the flags this
 * machine needs (never a downloaded browser). Boards are served by
 * `tests/helpers/serve_board.ts`.
 *
 * `scripts/test.ts` runs the e2e group inside {@link withBrowserServer}: one
 * browser for the whole group, each test file connected to it with contexts of
 * its own. A file run alone (`deno test -A tests/e2e/x_test.ts`) launches its own.
 */

import { type Browser, type BrowserServer, chromium } from "playwright-core";

/**
 * Debian's `chromium-headless-shell`, the old headless mode Playwright itself
 * runs headless tests on: the same engine as `/usr/bin/chromium`, without the
 * browser window and its WebUI renderer that the new headless mode starts for
 * each context, about half the browser's CPU per test (measured on
 * `tests/e2e/task_job_test.ts`: 12 s of Chromium CPU against 25 s).
 */
export const CHROMIUM = "/usr/bin/chromium-headless-shell";

/** The environment variable that hands test files the group's browser (its WebSocket endpoint). */
export const BROWSER_SERVER_ENV = "QUEUE_BOARD_TEST_BROWSER";

function browserArgs(extraArgs: readonly string[]): string[] {
  return [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    ...extraArgs,
  ];
}

/**
 * A headless Chromium: the group's (`groupBrowser`, by default what
 * {@link withBrowserServer} handed the test run) when `extraArgs` is empty;
 * else one launched for the caller, with `extraArgs` after the usual flags
 * (flags are the browser's, so a test that needs its own gets its own).
 * Closing it closes the caller's contexts; a shared browser stays up for the
 * other files.
 */
export async function launchBrowser(
  extraArgs: readonly string[] = [],
  groupBrowser = Deno.env.get(BROWSER_SERVER_ENV),
): Promise<Browser> {
  if (groupBrowser && extraArgs.length === 0) return await chromium.connect(groupBrowser);
  return await chromium.launch({ executablePath: CHROMIUM, args: browserArgs(extraArgs) });
}

/**
 * Runs `fn` with one Chromium that every {@link launchBrowser} without flags
 * connects to, in the processes `fn` starts with the environment it is given
 * (each test file of a group then pays for contexts, not for a browser). The
 * browser is killed by its pid when `fn` ends, however it ends: a group whose
 * tests hung and were killed leaves no browser behind.
 */
export async function withBrowserServer<T>(
  fn: (env: Record<string, string>) => Promise<T>,
): Promise<T> {
  const server: BrowserServer = await chromium.launchServer({
    executablePath: CHROMIUM,
    args: browserArgs([]),
  });
  try {
    return await fn({ [BROWSER_SERVER_ENV]: server.wsEndpoint() });
  } finally {
    await server.kill();
  }
}
