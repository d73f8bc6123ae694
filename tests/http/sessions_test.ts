/**
 * Sessions: every login is its own, a session has an absolute lifetime, and
 * a user (or an admin, for everyone) can sign out everywhere.
 */

import assert from "node:assert/strict";
import { sessionBoard, signIn } from "../helpers/session_board.ts";

/** The signed JSON inside a session cookie (`name=<value>.<signature>`). */
function sessionValue(cookie: string): Record<string, unknown> {
  const value = decodeURIComponent(cookie.slice(cookie.indexOf("=") + 1));
  return JSON.parse(value.slice(0, value.lastIndexOf(".")));
}

Deno.test("two logins of the same user mint distinct cookies, each with a nonce and an issue time", async () => {
  const realNow = Date.now;
  Date.now = () => 1_800_000_000_000;
  try {
    const { call, close } = sessionBoard();
    const first = await signIn(call);
    const second = await signIn(call);
    assert.notEqual(first, second, "same user, same millisecond: still two sessions");
    const [a, b] = [sessionValue(first), sessionValue(second)];
    assert.equal(typeof a.nonce, "string");
    assert.ok((a.nonce as string).length >= 16, "a nonce of at least 96 bits");
    assert.notEqual(a.nonce, b.nonce);
    assert.equal(a.iat, 1_800_000_000_000);
    assert.deepEqual(a.user, { name: "Ada" });
    await close();
  } finally {
    Date.now = realNow;
  }
});
