/**
 * Debian's Chromium driven by playwright-core, with the flags this machine
 * needs (never a downloaded browser). Boards are served by
 * `tests/helpers/serve_board.ts`.
 */

import { type Browser, chromium } from "playwright-core";

/** Where Debian installs Chromium. */
export const CHROMIUM = "/usr/bin/chromium";

/** Launches headless Chromium, with `extraArgs` after the usual flags. */
export async function launchBrowser(extraArgs: readonly string[] = []): Promise<Browser> {
  return await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
      ...extraArgs,
    ],
  });
}
