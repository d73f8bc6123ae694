/**
 * The order of the board's layers is data (`src/board/*_stack.ts`): each
 * app's layer names, per configuration, are pinned here. A guard moved after
 * what it guards (the same-origin check after the API's mutation routes, the
 * refusal recorder after a guard) fails here by name, before an HTTP test has
 * to find the hole it leaves.
 */

import assert from "node:assert/strict";
import { Hono } from "hono";
import { COMPOSED_HANDLER } from "hono/utils/constants";
import { createBoardOn } from "../../src/board.ts";
import { createApi } from "../../src/api/mod.ts";
import { apiStack } from "../../src/board/api_stack.ts";
import { metricsStack } from "../../src/board/metrics_stack.ts";
import { rootStack } from "../../src/board/root_stack.ts";
import { startServices } from "../../src/board/services.ts";
import { composeApp, layerNames, serveStack } from "../../src/board/stack.ts";
import { type BoardOptions, resolveOptions } from "../../src/options.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";

/** The layer names of each app of a board with `options`. */
async function stacksOf(options: BoardOptions) {
  const source = createMemorySource();
  const services = startServices(
    source,
    source.boardStore,
    resolveOptions(options),
    new FakeTimers(),
  );
  try {
    const routes = createApi(services);
    const root = rootStack(services, {
      routes,
      api: new Hono(),
      metrics: services.metrics && new Hono(),
      fetch: () => new Response(),
    });
    return {
      api: layerNames(apiStack(services, routes)),
      metrics: services.metrics && layerNames(metricsStack(services.options, services.metrics)),
      root: layerNames(root),
    };
  } finally {
    await services.close();
    await source.close();
  }
}

const SESSION_LOGIN: BoardOptions = {
  auth: { cookiePassword: "a-cookie-password-of-32-characters", authenticate: () => null },
  cors: { origin: "https://app.test" },
  metrics: { token: "a-scraper-token-of-32-characters" },
};

const AUTH_HOOK: BoardOptions = {
  auth: () => ({ name: "ada" }),
  readOnly: true,
  metrics: false,
  mcp: false,
};

/** What every request meets first, whatever the options. */
const ROOT_FIRST = ["security headers", "no-store (api)", "allowed hosts", "mcp calls"];

/** What every API request passes last, past every guard, whatever the options. */
const API_LAST = [
  "audit mutations",
  "json mutations",
  "migration guard",
  "own changes",
  "routes",
  "fallback",
];

Deno.test("session login: the guards answer in order, the API and the UI after them", async () => {
  assert.deepEqual(await stacksOf(SESSION_LOGIN), {
    root: [
      ...ROOT_FIRST,
      "audit refusals",
      "cors",
      "same origin",
      "metrics token",
      "same origin (mcp)",
      "mcp endpoint",
      "no-store (signed in)",
      "session guard",
      "login routes",
      "api",
      "metrics",
      "ui",
      "fallback",
    ],
    api: [
      "metrics timing",
      "body limit",
      "permission guard",
      ...API_LAST,
    ],
    metrics: ["permission guard", "scrape"],
  });
});

Deno.test("an auth hook on a read-only board: the hook names who asks, read-only wins", async () => {
  assert.deepEqual(await stacksOf(AUTH_HOOK), {
    root: [
      ...ROOT_FIRST,
      "same origin",
      "api",
      "ui",
      "fallback",
    ],
    api: [
      "body limit",
      "auth hook",
      "read-only",
      "permission guard",
      ...API_LAST,
    ],
    metrics: null,
  });
});

Deno.test("no auth: no guard asks who it is, the trail still records", async () => {
  assert.deepEqual(await stacksOf({}), {
    root: [
      ...ROOT_FIRST,
      "audit refusals",
      "same origin",
      "same origin (mcp)",
      "mcp endpoint",
      "api",
      "metrics",
      "ui",
      "fallback",
    ],
    api: [
      "metrics timing",
      "body limit",
      ...API_LAST,
    ],
    metrics: ["scrape"],
  });
});

/** Why each pair runs in this order: the reason a reorder would break. */
const BEFORE: readonly [earlier: string, later: string, why: string][] = [
  ["audit refusals", "same origin", "what a guard turns away is recorded"],
  ["cors", "same origin", "a preflight carries no cookie: no guard may answer it"],
  ["same origin", "session guard", "a forged request runs no authentication"],
  ["same origin", "api", "a cross-site request reaches no mutation route"],
  ["metrics token", "session guard", "a scraper with the token needs no session"],
  ["mcp endpoint", "session guard", "an MCP client gets the API's 401, not the sign-in page"],
  ["auth hook", "permission guard", "who asks is known before what they may do"],
  ["read-only", "permission guard", "a read-only board says read-only, not forbidden"],
  ["permission guard", "audit mutations", "a refused mutation is a refusal, never begun"],
  ["audit mutations", "routes", "a mutation is on the trail before it acts"],
  ["body limit", "permission guard", "no guard reads a body over the limit"],
];

Deno.test("each guard runs before what it guards, in every configuration", async () => {
  for (const options of [SESSION_LOGIN, AUTH_HOOK, {}]) {
    const { root, api, metrics } = await stacksOf(options);
    for (const names of [root, api, metrics ?? []]) {
      for (const [earlier, later, why] of BEFORE) {
        if (!names.includes(earlier) || !names.includes(later)) continue;
        assert.ok(
          names.indexOf(earlier) < names.indexOf(later),
          `${earlier} before ${later}: ${why}`,
        );
      }
    }
  }
});

Deno.test("composeApp runs the layers in their order, each on its paths", async () => {
  const ran: string[] = [];
  const mark = (name: string) => async (_c: unknown, next: () => Promise<void>) => {
    ran.push(name);
    await next();
  };
  const app = composeApp({
    onError: (_error, c) => c.text("error", 500),
    layers: [
      { name: "first", use: mark("first") },
      { name: "api only", on: ["/api/*"], use: mark("api only") },
      false,
      { name: "last", use: mark("last") },
      { name: "routes", at: "/api", mount: new Hono().get("/jobs", (c) => c.text("jobs")) },
      { name: "fallback", fallback: { mountPath: "/" } },
    ],
  });
  assert.equal(await (await app.request("/api/jobs")).text(), "jobs");
  assert.deepEqual(ran, ["first", "api only", "last"]);
  ran.length = 0;
  const refused = await app.request("/api/jobs", { method: "DELETE" });
  assert.equal(refused.status, 405);
  assert.equal(refused.headers.get("Allow"), "GET, HEAD");
  assert.equal((await app.request("/ui")).status, 404);
  assert.deepEqual(ran, ["first", "api only", "last", "first", "last"]);
});

/** The routes of `app` whose handler Hono wrapped in an error handler of the app it came from. */
function wrappedRoutes(app: Hono): string[] {
  return app.routes.filter((route) => COMPOSED_HANDLER in route.handler)
    .map((route) => `${route.method} ${route.path}`);
}

Deno.test("the board's layers run under one error handler, none wrapped per request", async () => {
  for (const options of [SESSION_LOGIN, AUTH_HOOK, {}]) {
    const board = createBoardOn(new FakeTimers(), createMemorySource(), options);
    try {
      assert.deepEqual(wrappedRoutes(board.app), []);
    } finally {
      await board.close();
    }
  }
  const { app, served } = serveStack({
    onError: (error, c) => c.text(error.message, 503),
    layers: [
      { name: "first", use: (_c, next) => next() },
      {
        name: "api",
        at: "/api",
        mount: composeApp({
          layers: [{
            name: "jobs",
            at: "/",
            mount: new Hono().get("/jobs", () => {
              throw new Error("down");
            }),
          }],
        }),
      },
    ],
  }, "/board");
  assert.deepEqual(wrappedRoutes(served), []);
  const answer = await served.request("/board/api/jobs");
  assert.equal(answer.status, 503);
  assert.equal(await answer.text(), "down");
  assert.equal((await app.request("/api/jobs")).status, 503);
});

Deno.test("every audited route is a mutation: a read passes the API's layers for mutations at once", async () => {
  const source = createMemorySource();
  const services = startServices(source, source.boardStore, resolveOptions({}), new FakeTimers());
  try {
    const audited = createApi(services).openAPIRegistry.definitions.flatMap((definition) =>
      definition.type === "route" && "x-audit" in definition.route
        ? [`${definition.route.method.toUpperCase()} ${definition.route.path}`]
        : []
    );
    assert.ok(audited.length > 0);
    assert.deepEqual(audited.filter((route) => /^(GET|HEAD|OPTIONS) /.test(route)), []);
  } finally {
    await services.close();
    await source.close();
  }
});
