/**
 * Browser tests against the real thing: a redis-server holding the taskora
 * fixture, a board on it served on a free port, and a Chromium page.
 *
 * Each test file, or each batch of them that `scripts/test.ts` runs in one
 * isolate, gets one Chromium (its group's, see `browser.ts`, or one of its own
 * when run alone) and one redis-server, the first time a test asks for them,
 * and lets go of both in `Deno.test.afterAll` (which runs even when `--filter`
 * skips every test). Each test gets a fresh browser context
 * and, through {@link withBoard} or {@link freshRedis}, an emptied server.
 *
 * @example
 * ```ts
 * browserTest("the overview lists the fixture's tasks", async () => {
 *   await withBoard({}, async ({ page, root }) => {
 *     await page.goto(root);
 *     await page.locator(".task-table").waitFor();
 *   });
 * });
 * ```
 */

import type { Browser, Locator, Page } from "playwright-core";
import { type Board, type BoardOptions, createBoard } from "../../mod.ts";
import type { TaskSource } from "../../source.ts";
import { loadFixture } from "../helpers/fixture.ts";
import { connectClient, startRedis, type TestRedis } from "../helpers/redis_server.ts";
import { launchBrowser } from "./browser.ts";
import { serveBoard, type ServedBoard, servePathOf } from "../helpers/serve_board.ts";

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

// One of each per isolate: a file run alone, or a batch of files (scripts/test.ts) sharing them.
let browser: Promise<Browser> | null = null;
let redis: Promise<TestRedis> | null = null;

/** The test file's Chromium, connected or launched on first use (again if it went away). */
export async function sharedBrowser(): Promise<Browser> {
  if (browser && !(await browser).isConnected()) browser = null;
  browser ??= launchBrowser();
  return await browser;
}

/**
 * The test file's redis-server, running and empty (data, scripts and
 * statistics), whatever the test before it did: stopped, paused or filled it.
 */
export async function freshRedis(): Promise<TestRedis> {
  redis ??= startRedis();
  const server = await redis;
  server.resume();
  await server.start();
  const client = await connectClient(server.url);
  try {
    await client.sendCommand(["FLUSHALL"]);
    await client.sendCommand(["SCRIPT", "FLUSH"]);
    await client.sendCommand(["CONFIG", "RESETSTAT"]);
  } finally {
    client.destroy();
  }
  return server;
}

/** Closes every context the test left open in the file's browser. */
async function closeContexts(): Promise<void> {
  if (!browser) return;
  const open = await browser;
  await Promise.all(open.contexts().map((context) => context.close()));
}

Deno.test.afterAll(async () => {
  const [openBrowser, server] = [browser, redis];
  browser = redis = null;
  await (await openBrowser)?.close();
  await (await server)?.stop();
});

/**
 * The test file that declared the browser test now running. Files batched
 * into one isolate (`scripts/test.ts`) share `Deno.mainModule` and the test
 * context's `origin` (both name the batch), so each test keeps its own file
 * here, and with it the server path its file's name gives it.
 */
let runningFile = Deno.mainModule;

/** The first file on the call stack other than this one: the test file calling in. */
function callingFile(): string {
  for (const line of new Error().stack?.split("\n") ?? []) {
    const file = /(file:\/\/[^\s()]+?):\d+:\d+/.exec(line)?.[1];
    if (file && file !== import.meta.url) return file;
  }
  return Deno.mainModule;
}

/**
 * Serves `board` on a free port by the server path of the running test's
 * file (`servePathOf`): half the files on `Deno.serve(board.fetch)`, half on
 * `board.listen`, however the files are batched.
 */
export function serveTestBoard(board: Board): Promise<ServedBoard> {
  return serveBoard(board, servePathOf(runningFile));
}

/**
 * Declares a browser test: the file's Chromium and redis-server outlive it,
 * so the sanitizers are off, and the contexts it opened are closed after it.
 */
export function browserTest(name: string, fn: (t: Deno.TestContext) => Promise<void>): void {
  const file = callingFile();
  Deno.test({
    name,
    sanitizeResources: false,
    sanitizeOps: false,
    async fn(t) {
      runningFile = file;
      try {
        await fn(t);
      } finally {
        await closeContexts();
      }
    },
  });
}

/** Runs `fn` with a fixture-loaded board open in a fresh context; cleans up whatever happens. */
export async function withBoard(
  options: WithBoardOptions,
  fn: (ctx: BoardPage) => Promise<void>,
): Promise<void> {
  const { colorScheme = "light", source, ...boardOptions } = options;
  const server = await freshRedis();
  const now = Date.now();
  await loadFixture(server.url, { at: now, metricsAt: now });
  const taskSource = source?.(server);
  const board = createBoard(taskSource ?? server.url, boardOptions);
  const http = await serveTestBoard(board);
  try {
    const chromium = await sharedBrowser();
    const context = await chromium.newContext({
      colorScheme,
      viewport: { width: 1360, height: 860 },
    });
    const page = await context.newPage();
    const basePath = boardOptions.basePath ?? "/board";
    await fn({ page, browser: chromium, board, redis: server, root: `${http.url}${basePath}/` });
  } finally {
    await closeContexts();
    await http.stop();
    await board.close();
    await taskSource?.close();
  }
}

/** Screenshots are written only when the environment says `SCREENSHOTS=1`. */
const SCREENSHOTS_WANTED = Deno.env.get("SCREENSHOTS") === "1";
const SCREENSHOTS = new URL("./screenshots/", import.meta.url);

/**
 * With `SCREENSHOTS=1`, saves what `target` shows as
 * `tests/e2e/screenshots/<name>.png` (not committed): a page's viewport, or
 * one element. Without, does nothing.
 */
export async function screenshotView(target: Page | Locator, name: string): Promise<void> {
  if (!SCREENSHOTS_WANTED) return;
  await Deno.mkdir(SCREENSHOTS, { recursive: true });
  await target.screenshot({ path: new URL(`${name}.png`, SCREENSHOTS).pathname });
}

/** Like {@link screenshotView}, of the whole page rather than the viewport. */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (!SCREENSHOTS_WANTED) return;
  await Deno.mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: new URL(`${name}.png`, SCREENSHOTS).pathname, fullPage: true });
}

/**
 * Switches the theme to light, then dark, as a user would, and with
 * `SCREENSHOTS=1` screenshots the view in each (`<name>-light.png`,
 * `<name>-dark.png`). The switching happens either way, so a test goes on in
 * the same theme whether screenshots are written or not.
 */
export async function screenshotThemes(page: Page, name: string): Promise<void> {
  for (const theme of ["Light", "Dark"]) {
    await page.getByRole("group", { name: "Colour theme" }).getByRole("button", { name: theme })
      .click();
    if (!SCREENSHOTS_WANTED) continue;
    await page.waitForTimeout(150); // the colours' transition, before the picture
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
