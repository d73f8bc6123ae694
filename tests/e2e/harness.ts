/**
 * Browser tests against the real thing: a redis-server holding the taskora
 * fixture, a board on it served on a free port, and a Chromium page.
 *
 * Each test file, or each batch of them that `scripts/test.ts` runs in one
 * isolate, gets one Chromium (its group's, see `browser.ts`, or one of its own
 * when run alone) and one redis-server, the first time a test asks for them,
 * and lets go of both in `Deno.test.afterAll` (which runs even when `--filter`
 * skips every test). Each test gets a fresh browser context
 * and, through {@link withBoard} or {@link freshRedis}, an emptied server, or
 * through {@link withSharedBoard} the board its file's looking tests share.
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
import type { Board, BoardOptions } from "../../mod.ts";
import type { TaskSource } from "../../source.ts";
import { createBoardOn } from "../../src/board.ts";
import { createRedisSource } from "../../src/source/redis/mod.ts";
import { systemTimers, type Timers } from "../../src/timers.ts";
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
  /** The board's timers (default: the runtime's): a test that runs a pass when it says. */
  timers?: Timers;
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
  await closeSharedBoard();
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

/**
 * Closes every context the test left open in the file's browser. Their route
 * handlers are let go of first, their errors ignored: a handler still
 * fetching an answer when its context closed threw outside any test, and
 * that uncaught error ended every test left in the batch.
 */
async function closeContexts(): Promise<void> {
  if (!browser) return;
  const open = await browser;
  await Promise.all(
    open.contexts().map(async (context) => {
      await Promise.all(
        context.pages().map((page) => page.unrouteAll({ behavior: "ignoreErrors" })),
      );
      await context.unrouteAll({ behavior: "ignoreErrors" });
      await context.close();
    }),
  );
}

Deno.test.afterAll(async () => {
  await closeSharedBoard();
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
      // A board shared by the tests of one file is not another file's.
      if (shared?.file !== file) await closeSharedBoard();
      runningFile = file;
      try {
        await fn(t);
      } finally {
        await closeContexts();
      }
    },
  });
}

/** How often a {@link quickDiscovery} board looks for new tasks, ms. */
const NEW_TASK_LOOK_MS = 100;

/**
 * A board's source (for {@link WithBoardOptions.source}) that looks for new
 * tasks every 100 ms rather than every 5 s: for a test whose taskora App
 * makes a task after the board started, since the board records and follows
 * a task's events from the look after it appeared.
 */
export function quickDiscovery(redis: TestRedis): TaskSource {
  return createRedisSource({ url: redis.url, discoveryIntervalMs: NEW_TASK_LOOK_MS });
}

/** A fixture-loaded board served on a free port, and how to let go of it. */
interface OpenBoard {
  board: Board;
  redis: TestRedis;
  root: string;
  close(): Promise<void>;
}

/** Empties the file's redis-server, loads the fixture, and serves a board on it. */
async function openBoard(options: WithBoardOptions): Promise<OpenBoard> {
  const { colorScheme: _, source, timers = systemTimers, ...boardOptions } = options;
  const server = await freshRedis();
  const now = Date.now();
  await loadFixture(server.url, { at: now, metricsAt: now });
  const taskSource = source?.(server);
  const board = createBoardOn(timers, taskSource ?? server.url, boardOptions);
  const http = await serveTestBoard(board);
  return {
    board,
    redis: server,
    root: `${http.url}${boardOptions.basePath ?? "/board"}/`,
    async close() {
      await http.stop();
      await board.close();
      await taskSource?.close();
    },
  };
}

/** Runs `fn` with `open`'s board in a page of a fresh context; closes the context after. */
async function inFreshPage(
  open: OpenBoard,
  colorScheme: "light" | "dark",
  fn: (ctx: BoardPage) => Promise<void>,
): Promise<void> {
  try {
    const chromium = await sharedBrowser();
    const context = await chromium.newContext({
      colorScheme,
      viewport: { width: 1360, height: 860 },
    });
    const page = await context.newPage();
    await fn({ page, browser: chromium, board: open.board, redis: open.redis, root: open.root });
  } finally {
    await closeContexts();
  }
}

/** Runs `fn` with a fixture-loaded board open in a fresh context; cleans up whatever happens. */
export async function withBoard(
  options: WithBoardOptions,
  fn: (ctx: BoardPage) => Promise<void>,
): Promise<void> {
  const open = await openBoard(options);
  try {
    await inFreshPage(open, options.colorScheme ?? "light", fn);
  } finally {
    await open.close();
  }
}

/** The board tests of one file share, while nothing else has used the redis-server. */
let shared: { file: string; key: string; open: OpenBoard } | null = null;

async function closeSharedBoard(): Promise<void> {
  const closing = shared;
  shared = null;
  await closing?.open.close();
}

/**
 * Like {@link withBoard}, but the board, and what `prepare` writes beside the
 * fixture (and any first answer it waits for), are built once for the tests of one file that name the same `key`,
 * one after another: building a 1,000-task fleet and warming a board on it
 * cost more than most of the tests that look at it. Each test still gets a
 * fresh context. The board goes when a test of another key or file runs, or
 * one empties the redis-server ({@link freshRedis}, {@link withBoard}), so
 * only tests that change nothing in Redis may share one.
 */
export async function withSharedBoard(
  key: string,
  options: WithBoardOptions,
  prepare: (open: { board: Board; redis: TestRedis }) => Promise<void>,
  fn: (ctx: BoardPage) => Promise<void>,
): Promise<void> {
  if (shared?.key !== key || shared.file !== runningFile) {
    await closeSharedBoard();
    const open = await openBoard(options);
    try {
      await prepare(open);
    } catch (error) {
      await open.close();
      throw error;
    }
    shared = { file: runningFile, key, open };
  }
  await inFreshPage(shared.open, options.colorScheme ?? "light", fn);
}

/** Moves the board's router in `page` to `url`, as its links do, at the top of the page. */
async function followLink(page: Page, url: string): Promise<void> {
  await page.evaluate((to) => {
    history.pushState(null, "", to);
    dispatchEvent(new PopStateEvent("popstate"));
    scrollTo(0, 0);
  }, url);
}

/**
 * Opens `url` in `page`: on the page's own origin as a link of the board does
 * (its router follows a `pushState`), else by `page.goto`. A reload of the
 * board costs the browser about 0.4 s of CPU (the bundle parsed and run, every
 * card read and drawn), a move within it about 0.15 s. The move passes through
 * the board's not-found page first, so nothing of the view before is left for
 * a test's wait to find, as after a load.
 */
export async function openInPage(page: Page, url: string): Promise<void> {
  if (new URL(page.url()).origin !== new URL(url).origin) {
    await page.goto(url);
    return;
  }
  const nowhere = await page.evaluate(() => new URL("no-such-page", document.baseURI).href);
  await followLink(page, nowhere);
  await page.getByRole("heading", { name: "No such page" }).waitFor();
  await followLink(page, url);
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
