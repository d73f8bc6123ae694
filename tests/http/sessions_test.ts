/**
 * Sessions: every login is its own, a session has an absolute lifetime, and
 * a user (or an admin, for everyone) can sign out everywhere.
 */

import assert from "node:assert/strict";
import { cookieOf, form, sessionBoard, signIn, withClock } from "../helpers/session_board.ts";

/** The signed JSON inside a session cookie (`name=<value>.<signature>`). */
function sessionValue(cookie: string): Record<string, unknown> {
  const value = decodeURIComponent(cookie.slice(cookie.indexOf("=") + 1));
  return JSON.parse(value.slice(0, value.lastIndexOf(".")));
}

Deno.test("two logins of the same user mint distinct cookies, each with a nonce and an issue time", async () => {
  await withClock(1_800_000_000_000, async () => {
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
  });
});

Deno.test("maxSessionAge ends a session however often it is renewed", async () => {
  await withClock(1_800_000_000_000, async (advance) => {
    const { call, close } = sessionBoard({ sessionTtl: "1h", maxSessionAge: "2h" });
    let cookie = await signIn(call);
    // 50 minutes in: renewed for the rolling hour.
    advance(50 * 60_000);
    const renewed = await call("/board/api/config", { headers: { cookie } });
    assert.equal(renewed.status, 200);
    assert.match(renewed.headers.get("set-cookie") ?? "", /Max-Age=3600;/);
    cookie = cookieOf(renewed);
    // 1 h 40 min in: renewed again, but only up to the two hours.
    advance(50 * 60_000);
    const capped = await call("/board/api/config", { headers: { cookie } });
    assert.equal(capped.status, 200);
    assert.match(capped.headers.get("set-cookie") ?? "", /Max-Age=1200;/);
    cookie = cookieOf(capped);
    // 1 h 50 min in: nothing left to renew.
    advance(10 * 60_000);
    const last = await call("/board/api/config", { headers: { cookie } });
    assert.equal(last.status, 200);
    assert.equal(last.headers.get("set-cookie"), null, "a renewal would not move the expiry");
    advance(10 * 60_000);
    const ended = await call("/board/api/config", { headers: { cookie } });
    assert.equal(ended.status, 401, "two hours after the login, renewed or not");
    await close();
  });
});

Deno.test("maxSessionAge alone gives the cookie a fixed lifetime; a bad one throws naming it", async () => {
  await withClock(1_800_000_000_000, async (advance) => {
    const { call, close } = sessionBoard({ maxSessionAge: "1d" });
    const login = await call("/board/auth/login", form({ username: "ada", password: "lovelace" }));
    assert.match(login.headers.get("set-cookie")!, /Max-Age=86400;/);
    const cookie = cookieOf(login);
    advance(86_400_000 - 1);
    assert.equal((await call("/board/api/config", { headers: { cookie } })).status, 200);
    advance(1);
    assert.equal((await call("/board/api/config", { headers: { cookie } })).status, 401);
    await close();
  });
  for (const maxSessionAge of ["soon", 0, -5, true]) {
    assert.throws(
      () => sessionBoard({ maxSessionAge: maxSessionAge as string }),
      /option "auth\.maxSessionAge" must be/,
    );
  }
});
