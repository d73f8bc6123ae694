/**
 * One browser test against the real thing: a throwaway redis-server holding
 * the taskora fixture, a board on it served on a free port, and a Chromium
 * page. {@link withBoard} sets it all up and tears it all down.
 */

import type { Browser, Page } from "playwright-core";
import { type Board, type BoardOptions, createBoard, type TaskSource } from "../../mod.ts";
import { loadFixture } from "../helpers/fixture.ts";
import { startRedis, type TestRedis } from "../helpers/redis_server.ts";
import { launchBrowser, serveBoard } from "./browser.ts";

/** What a browser test gets. */
export interface BoardPage {
  page: Page;
  browser: Browser;
  board: Board;
  redis: TestRedis;
  /** The board's root URL, ending in `/` (`http://127.0.0.1:1234/board/`). */
  root: string;
}

/** Options of {@link withBoard}: board options, plus the page's colour scheme. */
export interface WithBoardOptions extends BoardOptions {
  colorScheme?: "light" | "dark";
  /** The board's source over the test's Redis (default: its URL), closed after the board. */
  source?: (redis: TestRedis) => TaskSource;
}

/** Runs `fn` with a fixture-loaded board open in Chromium; cleans up whatever happens. */
export async function withBoard(
  options: WithBoardOptions,
  fn: (ctx: BoardPage) => Promise<void>,
): Promise<void> {
  const { colorScheme = "light", source, ...boardOptions } = options;
  const redis = await startRedis();
  try {
    await loadFixture(redis.url, { metricsAt: Date.now() });
    const taskSource = source?.(redis);
    const board = createBoard(taskSource ?? redis.url, boardOptions);
    const server = serveBoard(board);
    const browser = await launchBrowser();
    try {
      const context = await browser.newContext({
        colorScheme,
        viewport: { width: 1360, height: 860 },
      });
      const page = await context.newPage();
      const basePath = boardOptions.basePath ?? "/board";
      await fn({ page, browser, board, redis, root: `${server.url}${basePath}/` });
    } finally {
      await browser.close();
      await server.stop();
      await board.close();
      await taskSource?.close();
    }
  } finally {
    await redis.stop();
  }
}

const SCREENSHOTS = new URL("./screenshots/", import.meta.url);

/** Saves a full-page screenshot as `tests/e2e/screenshots/<name>.png` (not committed). */
export async function screenshot(page: Page, name: string): Promise<void> {
  await Deno.mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: new URL(`${name}.png`, SCREENSHOTS).pathname, fullPage: true });
}

/**
 * Screenshots the current view in both themes (`<name>-light.png`,
 * `<name>-dark.png`), using the theme switch as a user would.
 */
export async function screenshotThemes(page: Page, name: string): Promise<void> {
  for (const theme of ["Light", "Dark"]) {
    await page.getByRole("group", { name: "Colour theme" }).getByRole("button", { name: theme })
      .click();
    await page.waitForTimeout(150);
    await screenshot(page, `${name}-${theme.toLowerCase()}`);
  }
}

/**
 * Opens `path` below the board, which sends the browser to the login form,
 * signs in as ada/lovelace and waits to be back on `path`.
 */
export async function signIn(page: Page, root: string, path: string): Promise<void> {
  await page.goto(`${root}${path}`);
  await page.waitForURL("**/board/login**");
  await page.getByLabel("Username").fill("ada");
  await page.getByLabel("Password").fill("lovelace");
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(`**/board/${path}`);
}

/**
 * A browser test: Chromium and the board's server outlive the test's own
 * async ops, so Deno's resource and op sanitizers are off.
 */
export const browserTest = (name: string, fn: () => Promise<void>): void =>
  Deno.test({ name, sanitizeResources: false, sanitizeOps: false, fn });
