/**
 * Session login for tests: the `auth` option of a board that lets `ada` in
 * with any password, and signing in through its form as a browser does.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { BoardOptions } from "../../mod.ts";

/** Session login that lets `ada` in, whatever the password. */
export const ADA_LOGIN: NonNullable<BoardOptions["auth"]> = {
  cookiePassword: "a-cookie-secret-of-at-least-32-chars!",
  authenticate: ({ username }) => username === "ada" ? { name: "Ada" } : null,
};

/** Signs `ada` in through the login form of the board at `/board`; resolves to the session cookie. */
export async function signInAda(
  fetch: (request: Request) => Response | Promise<Response>,
): Promise<string> {
  const login = await fetch(
    new Request("http://board.test/board/auth/login", {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin: "http://board.test",
      },
      body: "username=ada&password=x",
    }),
  );
  assert.equal(login.status, 303);
  return login.headers.get("set-cookie")!.split(";")[0];
}
