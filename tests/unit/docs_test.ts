/**
 * The docs name only what exists: every API route README.md and docs/*.md
 * name is in the board's own OpenAPI document, and every option they name
 * is one `createBoard` takes. The options table names every option, so a new
 * one cannot go undocumented.
 */

import assert from "node:assert/strict";
import { createBoard, createMemorySource } from "../../mod.ts";
import type { AlertsFile } from "../../src/contract/alerts.ts";
import {
  type BoardOptions,
  type Formatters,
  KNOWN_OPTIONS,
  type LoginThrottleOptions,
  type McpOptions,
  type SessionAuthOptions,
} from "../../src/options.ts";

const ROOT = new URL("../../", import.meta.url);

type Keys<T> = Record<keyof T, true>;

/** The keys of the options that are objects: `deno check` fails when one drifts from its type. */
const NESTED_OPTIONS: Record<string, Record<string, true>> = {
  auth: {
    cookiePassword: true,
    authenticate: true,
    cookieName: true,
    sessionTtl: true,
    maxSessionAge: true,
    loginThrottle: true,
  } satisfies Keys<SessionAuthOptions>,
  "auth.loginThrottle": {
    attempts: true,
    addressAttempts: true,
    delay: true,
    maxDelay: true,
    maxEntries: true,
  } satisfies Keys<LoginThrottleOptions>,
  cors: { origin: true } satisfies Keys<NonNullable<BoardOptions["cors"]>>,
  formatters: { data: true, result: true } satisfies Keys<Formatters>,
  health: { maxWaitMs: true, maxIdleMs: true } satisfies Keys<NonNullable<BoardOptions["health"]>>,
  metrics: { token: true, maxTasks: true } satisfies Keys<
    Exclude<BoardOptions["metrics"], false | undefined>
  >,
  mcp: { actions: true, tokens: true } satisfies Keys<McpOptions>,
  alerts: { evaluateEvery: true, boardUrl: true, sinks: true, rules: true } satisfies Keys<
    AlertsFile
  >,
  tracing: { traceUrl: true, logsUrl: true, path: true } satisfies Keys<
    NonNullable<BoardOptions["tracing"]>
  >,
  history: {
    postgres: true,
    payloads: true,
    maxAge: true,
    maxSummaries: true,
    maxPerTask: true,
  } satisfies Keys<Exclude<BoardOptions["history"], boolean | undefined>>,
};

/** Every option path `createBoard` takes: `basePath`, `auth.sessionTtl`, `auth.loginThrottle.delay`… */
const OPTION_PATHS = new Set<string>([
  ...KNOWN_OPTIONS,
  ...Object.entries(NESTED_OPTIONS).flatMap(([parent, keys]) =>
    Object.keys(keys).map((key) => `${parent}.${key}`)
  ),
]);

interface Doc {
  file: string;
  text: string;
}

async function readDocs(): Promise<Doc[]> {
  const files = ["README.md"];
  for await (const entry of Deno.readDir(new URL("docs/", ROOT))) {
    if (entry.isFile && entry.name.endsWith(".md")) files.push(`docs/${entry.name}`);
  }
  return await Promise.all(
    files.sort().map(async (file) => ({
      file,
      text: await Deno.readTextFile(new URL(file, ROOT)),
    })),
  );
}

/** `/jobs/{jobId}/logs` and `/jobs/{id}/logs` are the same route. */
const routeKey = (method: string, path: string) =>
  `${method.toUpperCase()} ${path.replace(/\{[^}]*\}/g, "{}")}`;

/** What the board's own OpenAPI document lists, and the audit actions it records. */
async function boardFacts(): Promise<{ routes: Set<string>; auditActions: Set<string> }> {
  const board = createBoard(createMemorySource());
  try {
    const answer = await board.fetch(new Request("http://localhost/board/api/openapi.json"));
    const document = await answer.json() as { paths: Record<string, Record<string, unknown>> };
    const routes = new Set<string>();
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const method of Object.keys(operations)) routes.add(routeKey(method, path));
    }
    const audit = await board.fetch(new Request("http://localhost/board/api/audit"));
    const { actions } = await audit.json() as { actions: string[] };
    return { routes, auditActions: new Set(actions) };
  } finally {
    await board.close();
  }
}

const METHOD_PATH = /\b(GET|POST|PUT|DELETE|PATCH) (\{basePath\}|\/board)?(\/[\w{}./-]*)/g;
/** `/api/…` not inside a file path (`src/api/openapi.ts`). */
const API_PATH = /(?<![\w}/.-])(?:\{basePath\}|\/board)?\/api(\/[\w{}./-]+)/g;

/** The API routes a text names: `GET /tasks/{task}/jobs`, `{basePath}/api/events` (any method). */
function namedRoutes(text: string): { method: string | null; path: string }[] {
  const named: { method: string | null; path: string }[] = [];
  for (const [, method, base, raw] of text.matchAll(METHOD_PATH)) {
    const path = raw.replace(/[.]+$/, "");
    if (path.startsWith("/api/")) named.push({ method, path: path.slice(4) });
    else if (base === undefined) named.push({ method, path }); // relative to {basePath}/api
    // else a page or /metrics: outside the API and its document
  }
  for (const [, raw] of text.matchAll(API_PATH)) {
    named.push({ method: null, path: raw.replace(/[.]+$/, "") });
  }
  return named;
}

/** The option names a text gives: the first column of its options tables, and dotted paths. */
function namedOptions(text: string): string[] {
  const named: string[] = [];
  let inOptionsTable = false;
  for (const line of text.split("\n")) {
    const cells = line.startsWith("|") ? line.split(/(?<!\\)\|/).slice(1, -1) : null;
    if (!cells) {
      inOptionsTable = false;
      continue;
    }
    const first = cells[0].trim();
    if (first === "option") inOptionsTable = true;
    else if (inOptionsTable && !/^-+$/.test(first)) {
      for (const [, name] of first.matchAll(/`([^`]+)`/g)) named.push(name);
    }
  }
  const heads = KNOWN_OPTIONS.join("|");
  const dotted = new RegExp(`\`((?:${heads})(?:\\.[A-Za-z]+)+)`, "g");
  // A file's name (`store.ts`, beside the `store` option) names no option.
  for (const [, path] of text.matchAll(dotted)) if (!/\.(ts|md)$/.test(path)) named.push(path);
  return named;
}

Deno.test("namedRoutes() finds the routes a text names, with or without a method", () => {
  assert.deepEqual(
    namedRoutes(
      "`GET /jobs/{id}/logs?limit=` and `POST {basePath}/api/sessions/mine/revoke`; " +
        "`{basePath}/api/events`, `GET {basePath}/metrics`.",
    ),
    [
      { method: "GET", path: "/jobs/{id}/logs" },
      { method: "POST", path: "/sessions/mine/revoke" },
      { method: null, path: "/sessions/mine/revoke" },
      { method: null, path: "/events" },
    ],
  );
});

Deno.test("namedOptions() reads options tables and dotted option paths", () => {
  const text = [
    "| option | default |",
    "| ------ | ------- |",
    "| `logo`, `favicon` | none |",
    "",
    "| metric | labels |",
    "| `taskora_jobs` | `task` |",
    "",
    "Set `auth.loginThrottle: { attempts }` and `metrics.maxTasks`; `latency.oldestWaiting` is no option.",
  ].join("\n");
  assert.deepEqual(namedOptions(text), [
    "logo",
    "favicon",
    "auth.loginThrottle",
    "metrics.maxTasks",
  ]);
});

/** The routes `docs` name that `routes` (method and path, as {@link routeKey} writes them) lack. */
function unknownRoutes(docs: Doc[], routes: Set<string>): string[] {
  const paths = new Set([...routes].map((route) => route.slice(route.indexOf(" ") + 1)));
  const unknown: string[] = [];
  for (const { file, text } of docs) {
    for (const { method, path } of namedRoutes(text)) {
      const known = method === null
        ? paths.has(routeKey("GET", path).slice(4))
        : routes.has(routeKey(method, path));
      if (!known) unknown.push(`${file}: ${method ?? "(any)"} ${path}`);
    }
  }
  return unknown;
}

Deno.test("unknownRoutes() names a route the document lacks, whatever its parameters are called", () => {
  const routes = new Set([
    routeKey("GET", "/jobs/{jobId}"),
    routeKey("POST", "/jobs/{jobId}/retry"),
  ]);
  const doc = {
    file: "docs/api.md",
    text:
      "`GET /jobs/{id}`, `POST /jobs/{id}/retry`, `DELETE /jobs/{id}`, `{basePath}/api/jobs/{id}/explode`",
  };
  assert.deepEqual(unknownRoutes([doc], routes), [
    "docs/api.md: DELETE /jobs/{id}",
    "docs/api.md: (any) /jobs/{id}/explode",
  ]);
});

Deno.test("every API route the docs name is in the OpenAPI document", async () => {
  const { routes } = await boardFacts();
  assert.deepEqual(unknownRoutes(await readDocs(), routes), []);
});

Deno.test("every option the docs name is one createBoard takes", async () => {
  const { auditActions } = await boardFacts();
  const unknown: string[] = [];
  for (const { file, text } of await readDocs()) {
    for (const name of namedOptions(text)) {
      if (OPTION_PATHS.has(name) || auditActions.has(name)) continue; // `auth.login` is an action
      unknown.push(`${file}: ${name}`);
    }
  }
  assert.deepEqual(unknown, []);
});

Deno.test("the docs name every option createBoard takes", async () => {
  const named = new Set((await readDocs()).flatMap(({ text }) => namedOptions(text)));
  assert.deepEqual([...OPTION_PATHS].filter((path) => !named.has(path)), []);
});
