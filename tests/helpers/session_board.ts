/**
 * A board with session login on the memory source, and what a browser sends
 * to it: the HTTP tests of logins and sessions share these.
 *
 * @module
 */

import assert from "node:assert/strict";
import { createBoard } from "./checked_board.ts";
import type { BoardOptions } from "../../src/options.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import type { TaskSource } from "../../src/source/types.ts";

/** The cookie secret of every session board. */
export const SECRET = "a-cookie-secret-of-at-least-32-chars!";

/** What a browser sends for the board's own form. */
export const SAME_ORIGIN = { origin: "http://board.test", "sec-fetch-site": "same-origin" };

/**
 * A board whose login takes `ada` / `lovelace` (user `{ name: "Ada" }`) and
 * `root` / `toor` (user `{ name: "Root", role: "admin" }`), on a fresh memory
 * source unless one is given; `call` fetches a path of `http://board.test`.
 */
export function sessionBoard(
  auth: Partial<NonNullable<BoardOptions["auth"]>> = {},
  options: BoardOptions = {},
  source: TaskSource = createMemorySource(),
) {
  const board = createBoard(source, {
    title: "Ops <board>",
    auth: {
      cookiePassword: SECRET,
      authenticate: ({ username, password }) => {
        if (username === "ada" && password === "lovelace") return { name: "Ada" };
        if (username === "root" && password === "toor") return { name: "Root", role: "admin" };
        return null;
      },
      ...auth,
    },
    ...options,
  });
  /** Fetches `path`; `address` is the client's socket address, as `Deno.serve` hands it. */
  const call = (path: string, init: RequestInit & { url?: string; address?: string } = {}) =>
    Promise.resolve(board.fetch(
      new Request(init.url ?? `http://board.test${path}`, init),
      init.address === undefined ? undefined : {
        remoteAddr: { transport: "tcp", hostname: init.address, port: 40000 },
        completed: Promise.resolve(),
      },
    ));
  return {
    board,
    call,
    close: async () => {
      await board.close();
      await source.close();
    },
  };
}

/** A same-origin form post of `fields`. */
export function form(
  fields: Record<string, string>,
  from: Record<string, string> = SAME_ORIGIN,
): { method: string; headers: Record<string, string>; body: string } {
  return {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...from },
    body: new URLSearchParams(fields).toString(),
  };
}

/** The `name=value` of the response's Set-Cookie. */
export function cookieOf(response: Response): string {
  const header = response.headers.get("set-cookie");
  assert.ok(header, "a Set-Cookie header");
  return header.split(";")[0];
}

/** Signs in as `username` (default ada) and returns the session cookie. */
export async function signIn(
  call: ReturnType<typeof sessionBoard>["call"],
  username = "ada",
  password = username === "root" ? "toor" : "lovelace",
): Promise<string> {
  const response = await call("/board/auth/login", form({ username, password }));
  assert.equal(response.status, 303);
  return cookieOf(response);
}

/**
 * Runs `body` with `Date.now` reading a hand-moved clock that starts at
 * `start`; `advance(ms)` moves it. The real clock is back afterwards.
 */
export async function withClock(
  start: number,
  body: (advance: (ms: number) => void) => Promise<void>,
): Promise<void> {
  const realNow = Date.now;
  let now = start;
  Date.now = () => now;
  try {
    await body((ms) => void (now += ms));
  } finally {
    Date.now = realNow;
  }
}
