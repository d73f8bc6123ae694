/**
 * Login throttling: on by default, per username and per client address,
 * 429 with Retry-After and a delay that doubles with the failures; counted
 * in /metrics and written to the audit trail, never with the password.
 */

import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { hashPassword, MIN_ITERATIONS, verifyPassword } from "../../src/auth/password_hash.ts";
import { form, SAME_ORIGIN, sessionBoard, signIn, withClock } from "../helpers/session_board.ts";

const T0 = 1_800_000_000_000;

function attempt(
  call: ReturnType<typeof sessionBoard>["call"],
  username: string,
  password: string,
  from: { address?: string; headers?: Record<string, string> } = {},
) {
  return call("/board/auth/login", {
    ...form({ username, password }, { ...SAME_ORIGIN, ...from.headers }),
    address: from.address,
  });
}

Deno.test("500 wrong passwords: 5 are tried, the rest get 429, and so does the right one", async () => {
  await withClock(T0, async (advance) => {
    const { call, close } = sessionBoard();
    const statuses = new Map<number, number>();
    for (let i = 0; i < 500; i++) {
      const response = await attempt(call, "ada", `guess-${i}`, { address: "10.0.0.1" });
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      await response.body?.cancel();
    }
    assert.deepEqual(Object.fromEntries(statuses), { 401: 5, 429: 495 });
    const right = await attempt(call, "ada", "lovelace", { address: "10.0.0.2" });
    assert.equal(right.status, 429, "the username is throttled, whatever the address");
    assert.equal(right.headers.get("retry-after"), "1");
    assert.equal(right.headers.get("set-cookie"), null);
    assert.match(await right.text(), /Too many failed sign-ins: try again in 1 s/);
    advance(1000);
    assert.equal((await attempt(call, "ada", "lovelace", { address: "10.0.0.2" })).status, 303);
    await close();
  });
});

Deno.test("the delay doubles with each further failure, up to maxDelay; a success resets it", async () => {
  await withClock(T0, async (advance) => {
    const { call, close } = sessionBoard({
      loginThrottle: { attempts: 2, delay: "1s", maxDelay: "5s" },
    });
    // Each refusal is waited out: what the attempts get, in order.
    const answers: (number | string)[] = [];
    for (let i = 0; i < 11; i++) {
      const response = await attempt(call, "ada", "wrong");
      const retryAfter = response.headers.get("retry-after");
      answers.push(retryAfter ?? response.status);
      await response.body?.cancel();
      advance(Number(retryAfter ?? 0) * 1000);
    }
    assert.deepEqual(answers, [401, 401, "1", 401, "2", 401, "4", 401, "5", 401, "5"]);
    await signIn(call);
    const after = await attempt(call, "ada", "wrong");
    assert.equal(after.status, 401);
    assert.equal((await attempt(call, "ada", "wrong")).headers.get("retry-after"), null);
    await close();
  });
});

Deno.test("one address trying many usernames is throttled by its address", async () => {
  await withClock(T0, async () => {
    const { call, close } = sessionBoard({ loginThrottle: { addressAttempts: 3 } });
    const statuses: number[] = [];
    for (const username of ["a", "b", "c", "d", "e"]) {
      const response = await attempt(call, username, "x", { address: "192.0.2.7" });
      statuses.push(response.status);
      await response.body?.cancel();
    }
    assert.deepEqual(statuses, [401, 401, 401, 429, 429]);
    const json = await call("/board/auth/login", {
      method: "POST",
      headers: { "content-type": "application/json", ...SAME_ORIGIN },
      body: JSON.stringify({ username: "ada", password: "lovelace" }),
      address: "192.0.2.7",
    });
    assert.equal(json.status, 429);
    assert.deepEqual(await json.json(), {
      error: "Too many failed sign-ins: try again in 1 s",
      code: "TOO_MANY_ATTEMPTS",
    });
    assert.equal((await attempt(call, "ada", "lovelace", { address: "192.0.2.8" })).status, 303);
    await close();
  });
});

Deno.test("X-Forwarded-For names the client only with trustProxy", async () => {
  await withClock(T0, async () => {
    for (const trustProxy of [false, true]) {
      const { call, close } = sessionBoard({ loginThrottle: { addressAttempts: 1 } }, {
        trustProxy,
      });
      // The proxy appends the address it saw; what the client sent before it is not trusted.
      const viaProxy = (client: string) => ({
        address: "10.0.0.1",
        headers: { "x-forwarded-for": `203.0.113.99, ${client}` },
      });
      await (await attempt(call, "a", "x", viaProxy("198.51.100.1"))).body?.cancel();
      const other = await attempt(call, "b", "x", viaProxy("198.51.100.2"));
      assert.equal(other.status, trustProxy ? 401 : 429, `trustProxy: ${trustProxy}`);
      await other.body?.cancel();
      await close();
    }
  });
});

Deno.test("loginThrottle: false turns it off; a bad limit throws naming it", async () => {
  const { call, close } = sessionBoard({ loginThrottle: false });
  for (let i = 0; i < 50; i++) {
    const response = await attempt(call, "ada", "wrong");
    assert.equal(response.status, 401);
    await response.body?.cancel();
  }
  assert.equal((await attempt(call, "ada", "lovelace")).status, 303);
  await close();
  for (
    const [bad, name] of [
      [{ attempts: 0 }, "attempts"],
      [{ addressAttempts: 1.5 }, "addressAttempts"],
      [{ delay: "soon" }, "delay"],
      [{ maxDelay: "2d" }, "maxDelay"],
      [{ delay: "1m", maxDelay: "30s" }, "maxDelay"],
      [{ maxEntries: 10 }, "maxEntries"],
      [{ window: 5 }, "window"],
      [true, "loginThrottle"],
    ] as const
  ) {
    assert.throws(
      () => sessionBoard({ loginThrottle: bad as never }),
      new RegExp(`option "auth\\.loginThrottle${name === "loginThrottle" ? "" : `\\.${name}`}"`),
      JSON.stringify(bad),
    );
  }
});

Deno.test("failed logins are counted in /metrics and audited without the password", async () => {
  await withClock(T0, async () => {
    const { call, close } = sessionBoard({ loginThrottle: { attempts: 2 } });
    for (let i = 0; i < 3; i++) {
      await (await attempt(call, "ada", "hunter2-secret", { address: "192.0.2.9" })).body?.cancel();
    }
    const cookie = await signIn(call, "root");
    const metrics = await (await call("/board/metrics", { headers: { cookie } })).text();
    assert.match(metrics, /queue_board_login_failures_total\{reason="invalid"\} 2/);
    assert.match(metrics, /queue_board_login_failures_total\{reason="throttled"\} 1/);
    const audit = await call("/board/api/audit?action=auth.login", { headers: { cookie } });
    const text = await audit.text();
    assert.doesNotMatch(text, /hunter2/);
    const { entries } = JSON.parse(text);
    assert.deepEqual(
      entries.map((e: Record<string, unknown>) => [e.user, e.target, e.outcome, e.status, e.code]),
      [
        ["ada", "ada", "error", 429, "TOO_MANY_ATTEMPTS"],
        ["ada", "ada", "error", 401, "UNAUTHORIZED"],
        ["ada", "ada", "error", 401, "UNAUTHORIZED"],
      ],
      "the throttled attempt is a refusal of its own, kept apart from the actions",
    );
    assert.match(entries[0].detail, /192\.0\.2\.9/);
    await close();
  });
});

/** Three sign-ins of different usernames posted to `url`, with fetch over a real socket. */
async function threeUsernames(url: string): Promise<number[]> {
  const statuses: number[] = [];
  for (const username of ["a", "b", "c"]) {
    const response = await fetch(
      url,
      form({ username, password: "x" }, {
        origin: new URL(url).origin,
        "sec-fetch-site": "same-origin",
      }),
    );
    statuses.push(response.status);
    await response.body?.cancel();
  }
  return statuses;
}

Deno.test("the socket's address counts, under Deno.serve, board.handler and board.listen", async () => {
  const limits = { loginThrottle: { addressAttempts: 2 } };
  const served = sessionBoard(limits);
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, served.board.fetch);
  assert.deepEqual(
    await threeUsernames(`http://127.0.0.1:${server.addr.port}/board/auth/login`),
    [401, 401, 429],
  );
  await server.shutdown();
  await served.close();

  const node = sessionBoard(limits);
  const listener = createServer(node.board.handler);
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  const { port } = listener.address() as AddressInfo;
  assert.deepEqual(
    await threeUsernames(`http://127.0.0.1:${port}/board/auth/login`),
    [401, 401, 429],
  );
  await new Promise((resolve) => listener.close(resolve));
  await node.close();

  // listen() on loopback puts its own host guard in front: the socket must still reach the board.
  const listening = sessionBoard(limits);
  const board = await listening.board.listen({ port: 0, hostname: "127.0.0.1" });
  assert.deepEqual(
    await threeUsernames(`http://127.0.0.1:${board.addr.port}/board/auth/login`),
    [401, 401, 429],
  );
  await board.shutdown();
  await listening.close();
});

Deno.test("a parallel burst of sign-ins checks no more passwords than the free attempts", async () => {
  // A slow authenticate, as the CLI's PBKDF2 users are: each check is real work off the event loop.
  const hash = await hashPassword("lovelace", MIN_ITERATIONS);
  let checked = 0;
  const { call, close } = sessionBoard({
    authenticate: async ({ username, password }) => {
      checked++;
      return username === "ada" && await verifyPassword(password, hash) ? { name: "Ada" } : null;
    },
  });
  try {
    const guesses = Array.from({ length: 60 }, (_, i) => `guess-${i}`);
    const burst = await Promise.all(
      [...guesses, "lovelace"].map(async (password, i) => {
        const response = await attempt(call, "ada", password, { address: `198.51.100.${i}` });
        await response.body?.cancel();
        return response.status;
      }),
    );
    assert.equal(checked, 5, "only the 5 free attempts reach authenticate");
    assert.equal(burst.filter((status) => status === 401).length, 5);
    assert.equal(burst.at(-1), 429, "the right password, late in the burst, waits like the rest");
  } finally {
    await close();
  }
});

Deno.test("a flood of junk usernames does not evict a lockout from the table", async () => {
  await withClock(T0, async () => {
    const { call, close } = sessionBoard({ loginThrottle: { maxEntries: 1000 } });
    try {
      for (let i = 0; i < 5; i++) {
        await (await attempt(call, "ada", `guess-${i}`, { address: "192.0.2.1" })).body?.cancel();
      }
      // 1,102 usernames from 58 addresses, each in its own /64 and under its 20 attempts.
      for (let i = 0; i < 1102; i++) {
        const address = `2001:db8:${Math.floor(i / 19).toString(16)}::1`;
        const junk = await attempt(call, `junk-${i}`, "x", { address });
        assert.equal(junk.status, 401, `junk-${i} from ${address}`);
        await junk.body?.cancel();
      }
      const right = await attempt(call, "ada", "lovelace", { address: "198.51.100.1" });
      assert.equal(right.status, 429, "ada's lock holds until it ends");
      await right.body?.cancel();
    } finally {
      await close();
    }
  });
});

Deno.test("addresses are counted canonically: an IPv6 client by its /64, an IPv4-mapped one as IPv4", async () => {
  await withClock(T0, async () => {
    const { call, close } = sessionBoard({ loginThrottle: { addressAttempts: 3 } });
    try {
      const statuses = async (addresses: string[]) => {
        const answers: number[] = [];
        for (const [i, address] of addresses.entries()) {
          const response = await attempt(call, `user-${address}-${i}`, "x", { address });
          answers.push(response.status);
          await response.body?.cancel();
        }
        return answers;
      };
      // One host is given a /64 and may take any address in it.
      assert.deepEqual(
        await statuses([
          "2001:db8:1:2::1",
          "2001:db8:1:2:aaaa::9",
          "2001:DB8:1:2:0:0:0:77",
          "2001:db8:1:2::5",
        ]),
        [401, 401, 401, 429],
      );
      assert.deepEqual(
        await statuses(["::ffff:192.0.2.7", "192.0.2.7", "::FFFF:c000:207", "192.0.2.7"]),
        [401, 401, 401, 429],
      );
      assert.deepEqual(
        await statuses(["2001:db8:1:3::1"]),
        [401],
        "the next /64 is another client",
      );
    } finally {
      await close();
    }
  });
});
