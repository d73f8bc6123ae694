/**
 * Debian's Chromium driven by playwright-core, with the flags this machine
 * needs (never a downloaded browser), and a board served on a free port.
 */

import { type Browser, chromium } from "playwright-core";
import type { Board } from "../../mod.ts";

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

/** Serves a board on a free loopback port; returns its URL and a stop function. */
export function serveBoard(board: Board): { url: string; stop: () => Promise<void> } {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, board.fetch);
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    stop: () => server.shutdown(),
  };
}
