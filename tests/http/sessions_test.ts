/**
 * Sessions: every login is its own, a session has an absolute lifetime, and
 * a user (or an admin, for everyone) can sign out everywhere.
 */

import assert from "node:assert/strict";
import { isEvent, openStream } from "../events/sse_client.ts";
import { startRedis, withClient } from "../helpers/redis_server.ts";
import { waitFor } from "../helpers/wait_for.ts";
import {
  cookieOf,
  form,
  SAME_ORIGIN,
  sessionBoard,
  signIn,
  withClock,
} from "../helpers/session_board.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import { createRedisSource } from "../../src/source/redis/mod.ts";
import type { TaskSource } from "../../src/source/types.ts";

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

/** A same-origin JSON post of `path` with the session `cookie`. */
function revoke(call: ReturnType<typeof sessionBoard>["call"], path: string, cookie: string) {
  return call(path, {
    method: "POST",
    headers: { cookie, "content-type": "application/json", ...SAME_ORIGIN },
  });
}

async function status(call: ReturnType<typeof sessionBoard>["call"], cookie: string) {
  const response = await call("/board/api/config", { headers: { cookie } });
  await response.body?.cancel();
  return response.status;
}

/**
 * Sign-out-everywhere on `source`, seen by a second board on the same
 * source (another replica) at most 5 s later.
 */
async function signOutEverywhere(source: () => TaskSource) {
  await withClock(1_800_000_000_000, async (advance) => {
    const store = source();
    const here = sessionBoard({}, {}, store);
    const there = sessionBoard({}, {}, store);
    const laptop = await signIn(here.call);
    const phone = await signIn(here.call);
    const root = await signIn(here.call, "root");
    assert.equal(await status(there.call, laptop), 200, "the other replica read the epochs");
    advance(1000);

    const mine = await revoke(here.call, "/board/api/sessions/mine/revoke", laptop);
    assert.equal(mine.status, 200);
    assert.deepEqual(await mine.json(), { revoked: "mine", at: 1_800_000_001_000 });
    assert.match(mine.headers.get("set-cookie")!, /queue_board_session=;.*Max-Age=0/);
    assert.equal(await status(here.call, laptop), 401, "this very cookie");
    assert.equal(await status(here.call, phone), 401, "the same user's other session");
    assert.equal(await status(here.call, root), 200, "another user's session");
    // The other replica read the epochs 4.999 s ago, before the revocation.
    advance(3999);
    assert.equal(await status(there.call, phone), 200, "the other replica's epoch cache is 5 s");
    advance(1);
    assert.equal(await status(there.call, phone), 401, "and no more");
    const again = await signIn(here.call);
    assert.equal(await status(here.call, again), 200, "a new login works at once");

    const forbidden = await revoke(here.call, "/board/api/sessions/all/revoke", again);
    assert.equal(forbidden.status, 403);
    assert.equal((await forbidden.json()).code, "FORBIDDEN");
    assert.equal(await status(here.call, again), 200);
    advance(1000);
    const all = await revoke(here.call, "/board/api/sessions/all/revoke", root);
    assert.equal(all.status, 200);
    assert.deepEqual(await all.json(), { revoked: "all", at: 1_800_000_006_000 });
    assert.equal(await status(here.call, again), 401, "every user's sessions");
    assert.equal(await status(here.call, root), 401, "the admin's own too");
    assert.equal(await status(here.call, await signIn(here.call, "root")), 200);

    // Reading the trail is an admin's (audit.read).
    const trail = await (await here.call("/board/api/audit?action=sessions.revoke", {
      headers: { cookie: await signIn(here.call, "root") },
    })).json();
    assert.deepEqual(
      trail.entries.map((e: { user: string; target: string; outcome: string }) =>
        `${e.user} ${e.target} ${e.outcome}`
      ),
      ["Root all ok", "Ada all error", "Ada mine ok"],
    );
    await here.close();
    await there.close();
  });
}

Deno.test("sign out everywhere: a user's own sessions, or an admin's for all users (memory)", async () => {
  // Two boards on one memory source share its store, as replicas share Redis.
  await signOutEverywhere(() => createMemorySource());
});

Deno.test("sign out everywhere: the epochs live in Redis, under the board's root", async () => {
  const redis = await startRedis();
  try {
    await signOutEverywhere(() => createRedisSource({ url: redis.url }));
    await withClient(redis.url, async (client) => {
      // The board's own keys only (the audit trail's two logs, the revocations): no task's slot.
      assert.deepEqual((await client.keys("*")).sort(), [
        "taskora:board:audit",
        "taskora:board:audit:refusals",
        "taskora:board:sessions",
      ]);
      // Everyone's revocation covers the user's older one: one field left, beside the table's
      // id (given by the first board to look).
      const { table, ...fields } = await client.hGetAll("taskora:board:sessions");
      assert.deepEqual({ ...fields }, { "*": "1800000006000" });
      assert.match(table, /^[0-9a-f-]{36}$/);
    });
  } finally {
    await redis.stop();
  }
});

/**
 * Plain sign-out on `source`: the cookie signed out is refused for every
 * request from then on (a copy replayed for a mutation too), by this board
 * at once and by another replica on a shared store within 5 s; the user's
 * other sessions go on.
 */
async function signOut(source: () => TaskSource) {
  await withClock(1_800_000_000_000, async (advance) => {
    const store = source();
    const here = sessionBoard({ sessionTtl: "1h" }, {}, store);
    const there = sessionBoard({ sessionTtl: "1h" }, {}, store);
    const laptop = await signIn(here.call);
    const phone = await signIn(here.call);
    assert.equal(await status(there.call, laptop), 200, "the other replica read the table");
    const out = await here.call("/board/auth/logout", form({}, { cookie: laptop, ...SAME_ORIGIN }));
    assert.equal(out.status, 303);
    assert.match(out.headers.get("set-cookie")!, /queue_board_session=;.*Max-Age=0/);
    assert.equal(await status(here.call, laptop), 401, "a copy of the cookie signed out");
    const replayed = await revoke(here.call, "/board/api/sessions/mine/revoke", laptop);
    assert.equal(replayed.status, 401, "a mutation with it too");
    await replayed.body?.cancel();
    assert.equal(await status(here.call, phone), 200, "the user's other session goes on");
    advance(5000);
    assert.equal(await status(there.call, laptop), 401, "the other replica");
    assert.equal(await status(there.call, phone), 200);
    await here.close();
    await there.close();
  });
}

Deno.test("sign out ends this session's cookie, not the user's others (memory)", async () => {
  await signOut(() => createMemorySource());
});

Deno.test("sign out ends this session's cookie on every replica: the nonce is kept in Redis until it expires", async () => {
  const redis = await startRedis();
  try {
    await signOut(() => createRedisSource({ url: redis.url }));
    await withClient(redis.url, async (client) => {
      const fields = Object.keys(await client.hGetAll("taskora:board:sessions"));
      assert.equal(fields.filter((field) => field.startsWith("n:")).length, 1, "one nonce");
    });
  } finally {
    await redis.stop();
  }
});

const T0 = 1_800_000_000_000;

/** Runs `body` with `Date.now` reading `at`, and returns what it returned. */
async function atClock<T>(at: number, body: () => Promise<T>): Promise<T> {
  let result!: T;
  await withClock(at, async () => void (result = await body()));
  return result;
}

/**
 * The status of `cookie` once the board's Redis answers again (not 503),
 * each look on a clock 6 s further on than the last (from `from`), past the
 * 5 s the board trusts its copy of the revocations; and the clock then.
 */
async function statusOnceRedisAnswers(
  call: ReturnType<typeof sessionBoard>["call"],
  cookie: string,
  from: number,
): Promise<{ answer: number; at: number }> {
  let at = from;
  const answer = await waitFor(async () => {
    at += 6000;
    const answer = await atClock(at, () => status(call, cookie));
    return answer === 503 ? null : answer;
  }, { what: "Redis to answer the board again" });
  return { answer, at };
}

Deno.test("Redis restarted empty: a board that had seen the revocations refuses the cookies from before", async () => {
  const redis = await startRedis();
  const { call, close } = sessionBoard({}, {}, createRedisSource({ url: redis.url }));
  try {
    const [laptop, phone] = await atClock(T0, async () => {
      const laptop = await signIn(call);
      const phone = await signIn(call);
      const out = await call("/board/auth/logout", form({}, { cookie: laptop, ...SAME_ORIGIN }));
      assert.equal(out.status, 303);
      assert.equal(await status(call, laptop), 401);
      return [laptop, phone];
    });
    await redis.restart();
    const { answer, at } = await statusOnceRedisAnswers(call, laptop, T0);
    assert.equal(answer, 401, "the signed-out cookie does not come back with the data gone");
    await atClock(at + 1, async () => {
      assert.equal(await status(call, phone), 401, "nor any from before the loss: stricter");
      assert.equal(await status(call, await signIn(call)), 200, "a new sign-in works");
    });
  } finally {
    await close();
    await redis.stop();
  }
});

Deno.test("Redis restarted empty, the table made again by a new replica: the board that saw the old one tells everyone", async () => {
  const redis = await startRedis();
  const seen = sessionBoard({}, {}, createRedisSource({ url: redis.url }));
  const fresh = sessionBoard({}, {}, createRedisSource({ url: redis.url }));
  try {
    const laptop = await atClock(T0, async () => {
      const laptop = await signIn(seen.call);
      assert.equal(await status(seen.call, laptop), 200, "this board has seen the table");
      return laptop;
    });
    await redis.restart();
    // A replica that looks first after the loss knows no older table: it makes one, refusing nothing.
    const first = await statusOnceRedisAnswers(fresh.call, laptop, T0);
    assert.equal(first.answer, 200, "the new table's first reader cannot know");
    const old = await statusOnceRedisAnswers(seen.call, laptop, first.at);
    assert.equal(old.answer, 401, "another table's id: this board refuses the old cookie");
    await atClock(old.at + 6000, async () => {
      assert.equal(await status(fresh.call, laptop), 401, "and, through the table, every board");
    });
  } finally {
    await fresh.close();
    await seen.close();
    await redis.stop();
  }
});

Deno.test("sign out everywhere is refused from another site and without a session", async () => {
  const { call, close } = sessionBoard();
  const cookie = await signIn(call);
  const forged = await call("/board/api/sessions/mine/revoke", {
    method: "POST",
    headers: { cookie, "content-type": "application/json", origin: "https://evil.test" },
  });
  assert.equal(forged.status, 403);
  assert.equal((await forged.json()).code, "CROSS_ORIGIN");
  assert.equal(await status(call, cookie), 200);
  const anonymous = await call("/board/api/sessions/all/revoke", {
    method: "POST",
    headers: { "content-type": "application/json", ...SAME_ORIGIN },
  });
  assert.equal(anonymous.status, 401);
  await anonymous.body?.cancel();
  await close();
});

Deno.test("a read-only board still lets a user sign out everywhere: it changes no job", async () => {
  await withClock(1_800_000_000_000, async (advance) => {
    const { call, close } = sessionBoard({}, { readOnly: true });
    const cookie = await signIn(call);
    advance(1);
    assert.equal((await revoke(call, "/board/api/sessions/mine/revoke", cookie)).status, 200);
    assert.equal(await status(call, cookie), 401);
    const retry = await call("/board/api/tasks/x/retry-all", {
      method: "POST",
      headers: { cookie: await signIn(call), "content-type": "application/json", ...SAME_ORIGIN },
    });
    assert.equal((await retry.json()).code, "READ_ONLY");
    await close();
  });
});

Deno.test("signing out everywhere ends the user's open event streams at their next frame", async () => {
  const source = createMemorySource();
  const { board, call, close } = sessionBoard({}, {}, source);
  await withClock(1_800_000_000_000, async (advance) => {
    const cookie = await signIn(call);
    const stream = await openStream(board.fetch, "http://board.test/board/api/events", {
      headers: { cookie },
    });
    try {
      source.store.emit("mail", "active", "m1");
      await stream.waitFor(isEvent("job:active", (d) => d.id === "m1"));
      advance(1000);
      assert.equal((await revoke(call, "/board/api/sessions/mine/revoke", cookie)).status, 200);
      source.store.emit("mail", "active", "m2");
      const outcome = await Promise.race([
        stream.ended.then(() => "ended"),
        stream.waitFor(isEvent("job:active", (d) => d.id === "m2")).then(
          () => "m2 reached the signed-out browser",
          () => "still open",
        ),
      ]);
      assert.equal(outcome, "ended");
    } finally {
      await stream.close();
    }
  });
  await close();
});

Deno.test("Redis down under session login: the API is 503, the page shell is served, and both recover", async () => {
  const redis = await startRedis();
  const source = createRedisSource({ url: redis.url });
  const { call, close } = sessionBoard({}, {}, source);
  try {
    const cookie = await signIn(call);
    await redis.stop();
    // Past the 5 s the board trusts its copy of the revocations: it must ask Redis again.
    await withClock(Date.now() + 6000, async () => {
      const api = await call("/board/api/config", { headers: { cookie } });
      assert.equal(api.status, 503);
      assert.equal((await api.json()).code, "STORE_UNAVAILABLE");
      const page = await call("/board/", { headers: { cookie } });
      assert.equal(page.status, 200);
      await page.body?.cancel();
    });
    await redis.start();
    // Past the copy's 5 s again, so each try asks Redis, until it answers.
    let answer = 0;
    for (let attempt = 0; attempt < 40 && answer !== 200; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      await withClock(Date.now() + 12_000, async () => {
        answer = await status(call, cookie);
      });
    }
    assert.equal(answer, 200, "recovered by itself");
  } finally {
    await close();
    await redis.stop();
  }
});
