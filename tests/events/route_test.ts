/**
 * `GET /board/api/events` through the whole board: the session guard and the
 * auth hook apply to it like to every API route, and it streams the source's
 * events.
 */

import { systemTimers } from "../../src/timers.ts";
import { resolveOptions } from "../../src/options.ts";
import assert from "node:assert/strict";
import { Hono } from "hono";
import { createBoard } from "../helpers/checked_board.ts";
import { eventRoutes } from "../../src/api/events.ts";
import { createPresenter } from "../../src/contract/present.ts";
import { createBoardOn } from "../../src/board.ts";
import { createEventHub } from "../../src/events/hub.ts";
import {
  createMemorySource,
  MemorySource,
  MemoryStore,
  Simulator,
} from "../../src/source/memory/mod.ts";
import { isEvent, openStream } from "./sse_client.ts";
import { ADA_LOGIN, signInAda } from "../helpers/session_login.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { withClock } from "../helpers/session_board.ts";
import { waitFor } from "../helpers/wait_for.ts";

const EVENTS = "http://board.test/board/api/events";
/** The route mounted alone, on a hub of the test's own. */
const HUB_EVENTS = "http://board.test/api/events";

Deno.test("under session auth: 401 without a cookie, the stream with one", async () => {
  const source = createMemorySource();
  const board = createBoard(source, { auth: ADA_LOGIN });
  try {
    const denied = await board.fetch(new Request(EVENTS));
    assert.equal(denied.status, 401);
    assert.equal(await denied.text(), '{"error":"Unauthorized"}');

    const cookie = await signInAda(board.fetch);
    const stream = await openStream(board.fetch, EVENTS, { headers: { cookie } });
    try {
      assert.equal(stream.response.status, 200);
      assert.equal(stream.response.headers.get("content-type"), "text/event-stream");
      source.store.emit("mail", "active", "m1");
      await stream.waitFor(isEvent("job:active", (d) => d.id === "m1"));
    } finally {
      await stream.close();
    }
  } finally {
    await board.close();
    await source.close();
  }
});

Deno.test("under session auth the stream ends when the session expires, and the reconnect is 401", async () => {
  const source = createMemorySource();
  const timers = new FakeTimers();
  const board = createBoardOn(timers, source, {
    auth: {
      cookiePassword: "a-cookie-secret-of-at-least-32-chars!",
      sessionTtl: 1500,
      authenticate: () => ({ name: "Ada" }),
    },
  });
  try {
    // The cookie's expiry is wall-clock time: move it by hand with the board's timers.
    await withClock(Date.now(), async (advance) => {
      const login = await board.fetch(
        new Request("http://board.test/board/auth/login", {
          method: "POST",
          headers: { "content-type": "application/json", origin: "http://board.test" },
          body: JSON.stringify({ username: "ada", password: "x" }),
        }),
      );
      const cookie = login.headers.get("set-cookie")!.split(";")[0];
      const stream = await openStream(board.fetch, EVENTS, { headers: { cookie } });
      assert.equal(stream.response.status, 200);
      await timers.tick(0);
      await stream.waitFor(isEvent("stats:update"));
      let ended = false;
      stream.ended.then(() => ended = true);
      advance(1499);
      await timers.tick(1499);
      assert.equal(ended, false, "open until the session's last millisecond");
      advance(1);
      await timers.tick(1);
      await waitFor(() => ended, { what: "the stream to end with the session" });
      const again = await board.fetch(new Request(EVENTS, { headers: { cookie } }));
      assert.equal(again.status, 401);
      await again.body?.cancel();
    });
  } finally {
    await board.close();
    await source.close();
  }
});

Deno.test("the auth hook answers for the event stream too", async () => {
  const source = createMemorySource();
  const board = createBoard(source, {
    auth: (request) =>
      request.headers.get("x-key") === "open sesame"
        ? undefined
        : new Response("go away", { status: 403 }),
  });
  try {
    const denied = await board.fetch(new Request(EVENTS));
    assert.equal(denied.status, 403);
    assert.equal(await denied.text(), "go away");
    const stream = await openStream(board.fetch, EVENTS, { headers: { "x-key": "open sesame" } });
    try {
      assert.equal(stream.response.status, 200);
      await stream.waitFor(isEvent("stats:update"));
    } finally {
      await stream.close();
    }
  } finally {
    await board.close();
    await source.close();
  }
});

Deno.test("the simulator's jobs stream live through the board", async () => {
  // What createMemorySource({ simulate: { history: false } }) builds, and the board, on one fake clock.
  const timers = new FakeTimers();
  const store = new MemoryStore({ now: () => Date.UTC(2026, 10, 23, 12) + timers.now() });
  const simulator = new Simulator(store, { history: false }, timers);
  simulator.start();
  const source = new MemorySource(store, simulator);
  const board = createBoardOn(timers, source);
  const stream = await openStream(board.fetch, EVENTS);
  try {
    await timers.tick(20_000);
    await stream.waitFor(isEvent("job:completed"));
    await stream.waitFor(isEvent("job:active"));
  } finally {
    await stream.close();
    await board.close();
    await source.close();
  }
});

Deno.test("over a real socket (Deno.serve), a browser that leaves is released", async () => {
  const source = createMemorySource();
  const hub = createEventHub(source, createPresenter({ redact: [], formatters: {} }));
  const app = new Hono().route(
    "/api",
    eventRoutes({ events: hub, timers: systemTimers, options: resolveOptions({}) }),
  );
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, app.fetch);
  const url = `http://127.0.0.1:${server.addr.port}/api/events`;
  try {
    const leaving = new AbortController();
    const stream = await openStream(fetch, url, { signal: leaving.signal });
    const staying = await openStream(fetch, url);
    assert.equal(stream.response.headers.get("x-accel-buffering"), "no");
    source.store.emit("mail", "active", "m1");
    await stream.waitFor(isEvent("job:active"));
    assert.equal(hub.state().clients, 2);
    leaving.abort();
    await stream.ended;
    // The server notices the closed socket at once or on its next write.
    await waitFor(() => {
      source.store.emit("mail", "progress", "m2", { value: "1" });
      return hub.state().clients === 1;
    }, { what: "the browser that left to be released", everyMs: 50 });
    await staying.waitFor(isEvent("job:progress"));
    await staying.close();
  } finally {
    await hub.close();
    await server.shutdown();
    await source.close();
  }
});

Deno.test("the statsInterval option sets how often stats:update frames come", async () => {
  const source = createMemorySource();
  // Each stats poll asks since when the split of the counts is exact (the change feed's passes
  // list the tasks too, and ask only of tasks they read).
  let polls = 0;
  const retryingAsOf = source.retryingAsOf.bind(source);
  source.retryingAsOf = (tasks) => {
    polls++;
    return retryingAsOf(tasks);
  };
  const timers = new FakeTimers();
  const board = createBoardOn(timers, source, { statsInterval: 500 });
  const stream = await openStream(board.fetch, EVENTS);
  try {
    await timers.tick(0);
    const first = await stream.waitFor(isEvent("stats:update"));
    assert.equal(polls, 1);
    await timers.tick(499);
    assert.equal(polls, 1, "none before 500 ms");
    await timers.tick(1);
    assert.equal(polls, 2, "the next at 500 ms, not at the 3 s default");
    await timers.tick(1);
    await stream.waitFor(isEvent("stats:update"), stream.frames.indexOf(first) + 1);
  } finally {
    await stream.close();
    await board.close();
    await source.close();
  }
  assert.throws(() => createBoard(source, { statsInterval: 10 }), /statsInterval/);
});

Deno.test("HEAD /events answers the stream's headers without a stream, and holds nothing", async () => {
  const source = createMemorySource();
  const timers = new FakeTimers();
  const hub = createEventHub(source, createPresenter({ redact: [], formatters: {} }), { timers });
  const app = new Hono().route(
    "/api",
    eventRoutes({ events: hub, timers: systemTimers, options: resolveOptions({}) }),
  );
  try {
    for (let i = 0; i < 500; i++) {
      const response = await app.fetch(new Request(HUB_EVENTS, { method: "HEAD" }));
      assert.equal(response.status, 200);
      assert.equal(response.headers.get("content-type"), "text/event-stream");
      assert.equal(response.body, null);
    }
    // Let anything a HEAD might have started (a stats poll, a flush, an idle stop) run.
    await timers.tick(60_000);
    assert.equal(timers.pending, 0);
    assert.deepEqual(hub.state(), { clients: 0, timers: 0, subscribed: false, queued: 0 });
  } finally {
    await hub.close();
    await source.close();
  }
});

Deno.test("a GET whose request is aborted releases its client, body read or not", async () => {
  const source = createMemorySource();
  const timers = new FakeTimers();
  const hub = createEventHub(source, createPresenter({ redact: [], formatters: {} }), {
    idleStopMs: 0,
    timers,
  });
  const app = new Hono().route(
    "/api",
    eventRoutes({ events: hub, timers: systemTimers, options: resolveOptions({}) }),
  );
  try {
    // A runtime that aborts the request's signal when the client goes, and never cancels the body.
    const leaving = new AbortController();
    const response = await app.fetch(new Request(HUB_EVENTS, { signal: leaving.signal }));
    assert.equal(response.status, 200);
    await waitFor(() => hub.state().clients === 1, { what: "the GET's client to connect" });
    leaving.abort();
    await waitFor(() => hub.state().clients === 0, { what: "the aborted GET's client to go" });
    assert.deepEqual(hub.state(), { clients: 0, timers: 0, subscribed: false, queued: 0 });

    // A request aborted before the route runs connects nothing.
    const gone = new AbortController();
    gone.abort();
    const late = await app.fetch(new Request(HUB_EVENTS, { signal: gone.signal }));
    await late.body?.cancel();
    await timers.tick(60_000);
    assert.deepEqual(hub.state(), { clients: 0, timers: 0, subscribed: false, queued: 0 });
  } finally {
    await hub.close();
    await source.close();
  }
});
