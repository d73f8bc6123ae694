/**
 * Serves a board on a free loopback port by one of the servers its users
 * run: `Deno.serve(board.fetch)` (what embedders write), `board.listen`
 * (node:http through `@hono/node-server`: what the CLI runs) or node:http's
 * `createServer(board.handler)` (Node.js and Express hosts). Deno.serve and
 * node-server hand the board different `Request` objects, so a defect of one
 * is invisible on the other: a test given no path takes its file's
 * {@link servePathOf}, and so the browser files are spread over the first two.
 *
 * @example
 * ```ts ignore
 * const server = await serveBoard(board); // this file's path
 * const listened = await serveBoard(board, "listen");
 * await fetch(`${listened.url}/board/api/config`);
 * await listened.stop();
 * ```
 *
 * @module
 */

import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Board } from "../../mod.ts";

/** Which server a board is served by. */
export type ServePath = "fetch" | "listen" | "handler";

/** Every path, for a test that runs the same requests on each. */
export const SERVE_PATHS: readonly ServePath[] = ["fetch", "listen", "handler"];

/** The paths test files are spread over: what embedders write, and what the CLI runs. */
const FILE_PATHS: readonly ServePath[] = ["fetch", "listen"];

/** A served board. */
export interface ServedBoard {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  url: string;
  port: number;
  via: ServePath;
  /** Stops the server (the board stays open: the test closes it). */
  stop(): Promise<void>;
}

/**
 * The path a test file serves its boards by: `BOARD_SERVE_PATH` (`fetch` or
 * `listen`) when set, to run a suite on one path; else fixed by the file's
 * name (a hash, so adding a file moves no other), about half on each.
 */
export function servePathOf(file: string): ServePath {
  const forced = Deno.env.get("BOARD_SERVE_PATH");
  if (forced === "fetch" || forced === "listen") return forced;
  const name = file.slice(file.lastIndexOf("/") + 1);
  let hash = 0;
  for (const char of name) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return FILE_PATHS[hash % FILE_PATHS.length];
}

/** Serves `board` on 127.0.0.1 by `via` (default: the running test file's path). */
export async function serveBoard(
  board: Board,
  via: ServePath = servePathOf(Deno.mainModule),
): Promise<ServedBoard> {
  if (via === "fetch") {
    const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, board.fetch);
    return served(server.addr.port, via, () => server.shutdown());
  }
  if (via === "listen") {
    const server = await quietly(() => board.listen({ port: 0, hostname: "127.0.0.1" }));
    return served(server.addr.port, via, () => server.shutdown());
  }
  const server = createServer(board.handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return served((server.address() as AddressInfo).port, via, () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    return closed;
  });
}

function served(port: number, via: ServePath, stop: () => Promise<void>): ServedBoard {
  return { url: `http://127.0.0.1:${port}`, port, via, stop };
}

/** Runs `start` without printing the start line `board.listen` prints (its own tests read it). */
async function quietly<T>(start: () => Promise<T>): Promise<T> {
  const log = console.log;
  console.log = (...args: unknown[]) => {
    if (!String(args[0]).startsWith("queue-board listening on ")) log(...args);
  };
  try {
    return await start();
  } finally {
    console.log = log;
  }
}
