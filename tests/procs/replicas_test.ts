/**
 * Three CLI board processes on one Redis behind a round-robin proxy act as
 * one board for what the replicas share: a session signed in through one is
 * good on every one, a sign-out-everywhere through one ends it on all, and
 * the audit trail written through one is read through the others.
 */

import assert from "node:assert/strict";
import { startRedis } from "../helpers/redis_server.ts";
import { startBoardProcesses } from "../helpers/board_processes.ts";
import { startRoundRobinProxy } from "../helpers/round_robin_proxy.ts";
import { waitFor } from "../helpers/wait_for.ts";

const redis = await startRedis();
const processes = await startBoardProcesses({
  count: 3,
  cliArgs: ["--redis", redis.url],
  env: { BOARD_USERNAME: "ops", BOARD_PASSWORD: "pw", BOARD_COOKIE_SECRET: "s".repeat(32) },
});
const proxy = await startRoundRobinProxy(processes.boards.map((board) => board.port));

Deno.test.afterAll(async () => {
  await proxy.close();
  await processes.stop();
  await redis.stop();
});

/** Signs `ops` in through the proxy's next backend, as the login form does; the session cookie. */
async function signIn(): Promise<string> {
  const response = await fetch(`${proxy.origin}/board/auth/login`, {
    method: "POST",
    redirect: "manual",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      origin: proxy.origin,
    },
    body: "username=ops&password=pw",
  });
  await response.body?.cancel();
  assert.equal(response.status, 303);
  return response.headers.get("set-cookie")!.split(";")[0];
}

/** A request through the proxy to backend `index`, as the signed-in browser sends it. */
async function through(
  index: number,
  path: string,
  cookie: string,
  init: RequestInit = {},
): Promise<{ status: number; backend: string | null; body: unknown }> {
  proxy.turnTo(index);
  const response = await fetch(`${proxy.origin}/board/api${path}`, {
    ...init,
    headers: { cookie, origin: proxy.origin, "content-type": "application/json" },
  });
  const text = await response.text();
  return {
    status: response.status,
    backend: response.headers.get("x-backend"),
    body: text ? JSON.parse(text) : null,
  };
}

Deno.test("a session signed in through one replica is good on every replica", async () => {
  proxy.turnTo(0);
  const cookie = await signIn();
  for (const index of [0, 1, 2]) {
    const { status, backend } = await through(index, "/config", cookie);
    assert.equal(backend, String(index));
    assert.equal(status, 200, `backend ${index}`);
  }
});

Deno.test("signing out everywhere through one replica ends the session on all of them", async () => {
  proxy.turnTo(1);
  const cookie = await signIn();
  const revoked = await through(2, "/sessions/mine/revoke", cookie, { method: "POST", body: "{}" });
  assert.equal(revoked.status, 200);
  for (const index of [0, 1, 2]) {
    // Another replica reads the revocations again within REVOCATION_CACHE_MS.
    await waitFor(async () => (await through(index, "/config", cookie)).status === 401, {
      what: `backend ${index} to refuse the revoked session`,
    });
  }
});

Deno.test("an audit entry written through one replica is read through the others", async () => {
  proxy.turnTo(0);
  const cookie = await signIn();
  const revoked = await through(0, "/sessions/all/revoke", cookie, { method: "POST", body: "{}" });
  assert.equal(revoked.status, 200);
  proxy.turnTo(1);
  const fresh = await waitFor(async () => {
    const candidate = await signIn();
    return (await through(1, "/config", candidate)).status === 200 ? candidate : null;
  }, { what: "a session signed in after the revocation" });
  for (const index of [1, 2]) {
    const { status, body } = await through(index, "/audit?action=sessions.revoke", fresh);
    assert.equal(status, 200);
    const entries = (body as { entries: { target: string; user: string }[] }).entries;
    assert.ok(
      entries.some((entry) => entry.target === "all" && entry.user === "ops"),
      `backend ${index} reads the entry backend 0 wrote: ${JSON.stringify(entries)}`,
    );
  }
});
