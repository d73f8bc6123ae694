/**
 * `createBoard`: validates the options, then mounts the API guards, the API
 * and the UI under the base path.
 *
 * @module
 */

import { type Context, Hono, type MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { except } from "hono/combine";
import { cors } from "hono/cors";
import { NONCE, secureHeaders } from "hono/secure-headers";
import { sessionGuard } from "./auth/guard.ts";
import { createLoginThrottle } from "./auth/login_throttle.ts";
import { loginRoutes, recordFailedLogin } from "./auth/routes.ts";
import { sameOrigin } from "./auth/same_origin.ts";
import { allowedHosts } from "./auth/allowed_hosts.ts";
import { createSessionRevoker } from "./auth/revocations.ts";
import { clearSession, type SessionConfig } from "./auth/session.ts";
import { type NodeHandler, nodeListener } from "./node_listener.ts";
import { auditRefusals } from "./audit/gate.ts";
import { auditMutations } from "./audit/record.ts";
import { auditedRoutes, guardedRoutes } from "./audit/route_actions.ts";
import { permissionGuard } from "./auth/permission_guard.ts";
import { createAuditTrail } from "./audit/trail.ts";
import { createLatencySampler } from "./samplers/latency.ts";
import { Leadership, leaseOf } from "./leadership.ts";
import { startBacklogSampler } from "./samplers/backlog.ts";
import { startAlertEvaluator } from "./alerts/runner.ts";
import { type BoardMetrics, createBoardMetrics } from "./metrics/route.ts";
import { metricsToken } from "./auth/metrics_token.ts";
import { Operations } from "./bulk/operations.ts";
import { operationHooks } from "./bulk/hooks.ts";
import { ScanSlots } from "./scans/slots.ts";
import { jsonMutations } from "./api/body.ts";
import { type UserEnv, userName } from "./auth/user.ts";
import { presetCan } from "./auth/permissions.ts";
import { createApi } from "./api/mod.ts";
import { migrationGuard } from "./api/migration_lock.ts";
import { createPresenter } from "./contract/present.ts";
import { BoardError, errorBody } from "./errors.ts";
import { createEventHub } from "./events/hub.ts";
import {
  type AuthHook,
  type BoardOptions,
  type ResolvedOptions,
  type ResolvedSessionAuth,
  resolveOptions,
} from "./options.ts";
import { type BoardServer, listen, type ListenOptions } from "./listen.ts";
import { routeFallback } from "./route_fallback.ts";
import { createRedisSource } from "./source/redis/mod.ts";
import type { TaskSource } from "./source/types.ts";
import { createAppSource, isTaskoraApp } from "./taskora/mod.ts";
import type { TaskoraApp } from "./taskora/app.ts";
import { noStore } from "./no_store.ts";
import { mcpEndpoint } from "./mcp/endpoint.ts";
import { McpCalls } from "./mcp/mcp_calls.ts";
import { serveUi } from "./static.ts";
import { epochClock, systemTimers, type Timers } from "./timers.ts";

export type { NodeHandler };

/**
 * What {@link createBoard} returns: `app`, the Hono app with routes relative to
 * the base path (mount it with `host.route(basePath, board.app)`), and the
 * handlers below.
 */
export interface Board {
  /**
   * The Hono app with routes relative to the base path: mount it with
   * `host.route(basePath, board.app)`.
   *
   * @ignore Hono's own types are documented by Hono (npm:hono).
   */
  app: Hono;
  /**
   * A web-standard handler serving the board under its base path
   * (`Deno.serve(board.fetch)`). `info`, the connection `Deno.serve` hands
   * it, gives login throttling the client's address.
   */
  fetch: (request: Request, info?: Deno.ServeHandlerInfo) => Response | Promise<Response>;
  /** A Node.js request listener (`http.createServer(board.handler)`). */
  handler: NodeHandler;
  /**
   * Starts a server and prints one line saying what is exposed: the URL,
   * mutations, login and redaction on or off, with a warning when the board is
   * reachable from other machines with no login and mutations on, or answers
   * any `Host`. Resolves once listening.
   *
   * Takes a port (`listen(3000)`) or {@link ListenOptions}
   * (`listen({ port: 3000, hostname: "127.0.0.1" })`). The hostname defaults
   * to every interface (`0.0.0.0`). Connections that do not finish their
   * headers, or sit idle, are closed after 15 s (`headersTimeout`,
   * `idleTimeout`), which `Deno.serve` cannot do.
   */
  listen: (options?: number | ListenOptions) => Promise<BoardServer>;
  /** Releases what the board opened itself (the Redis connection when given a URL). */
  close: () => Promise<void>;
}

/** The keys of `T` that are not optional. */
type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];

// `satisfies` makes `deno check` fail when a required port method is missing
// here or one named here leaves the port: a custom source is checked for all of them.
const REQUIRED_SOURCE_METHODS = {
  listTasks: true,
  refreshTasks: true,
  getStats: true,
  retryingAsOf: true,
  getQueueHeads: true,
  getQueueSnapshots: true,
  getTaskStorage: true,
  getFinishedTimings: true,
  listJobs: true,
  getJob: true,
  getJobLogs: true,
  findJobsByIdPrefix: true,
  getVersionDistribution: true,
  listSchedules: true,
  listWorkflows: true,
  getWorkflow: true,
  listDeadLetters: true,
  groupDeadLetters: true,
  getThroughput: true,
  getThroughputByTask: true,
  getStoreInfo: true,
  retryJob: true,
  retryJobWithData: true,
  rerunJob: true,
  cancelJob: true,
  retryAllFailed: true,
  retryDeadLetterGroup: true,
  cleanJobs: true,
  countCleanable: true,
  pauseSchedule: true,
  resumeSchedule: true,
  triggerSchedule: true,
  updateSchedule: true,
  removeSchedule: true,
  cancelWorkflow: true,
  subscribe: true,
  close: true,
} as const satisfies Record<RequiredKeys<TaskSource>, true>;

const SOURCE_METHODS = Object.keys(REQUIRED_SOURCE_METHODS) as (keyof TaskSource)[];

function resolveSource(
  source: TaskSource | TaskoraApp | string,
): { source: TaskSource; owned: boolean } {
  // The App's connection stays the App's: the source it gets borrows it.
  if (isTaskoraApp(source)) return { source: createAppSource(source), owned: true };
  if (typeof source === "string") {
    if (!/^rediss?:\/\//.test(source)) {
      throw new TypeError(
        `queue-board: source must be a taskora App, a TaskSource or a redis:// URL (got ${
          JSON.stringify(source)
        })`,
      );
    }
    return { source: createRedisSource({ url: source }), owned: true };
  }
  const missing = SOURCE_METHODS.filter((method) =>
    typeof (source as unknown as Record<string, unknown> | null)?.[method] !== "function"
  );
  if (missing.length > 0) {
    throw new TypeError(
      "queue-board: source must be a taskora App, a TaskSource or a redis:// URL " +
        `(missing ${missing.join(", ")})`,
    );
  }
  return { source: source as TaskSource, owned: false };
}

function onError(error: Error, c: Context): Response {
  const { status, body } = errorBody(error);
  if (status === 500) console.error("queue-board: unexpected error", error);
  return c.json(body, status);
}

/** The board's error handler, counting the store's errors into its metrics. */
function countingErrors(metrics: BoardMetrics | null): (error: Error, c: Context) => Response {
  if (!metrics) return onError;
  return function onCountedError(error, c) {
    metrics.countError(error);
    return onError(error, c);
  };
}

/** The largest request body the API reads. */
export const API_BODY_LIMIT = 1024 * 1024;

function bodyTooLarge(c: Context): Response {
  return c.json({ error: `Request body over ${API_BODY_LIMIT} bytes`, code: "INVALID_PARAM" }, 413);
}

function originOf(url: string | null): string[] {
  if (url === null || !/^https?:\/\//.test(url)) return [];
  return [new URL(url).origin];
}

/** Headers for every answer: a CSP that lets only the board's own code run, no framing. */
function securityHeaders(options: ResolvedOptions): Parameters<typeof secureHeaders>[0] {
  return {
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", NONCE],
      imgSrc: ["'self'", "data:", ...originOf(options.logo), ...originOf(options.favicon)],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
    xFrameOptions: "DENY",
    referrerPolicy: "same-origin",
    strictTransportSecurity: false,
  };
}

/** Refuses every mutation but signing out everywhere (under `sessionsPath`): it changes no job. */
function readOnlyGuard(sessionsPath: string): MiddlewareHandler {
  return async function readOnly(c, next) {
    const mutation = c.req.method !== "GET" && c.req.method !== "HEAD" &&
      c.req.method !== "OPTIONS";
    if (mutation && !c.req.path.startsWith(sessionsPath)) {
      throw new BoardError("READ_ONLY", "The board is read-only: mutations are disabled");
    }
    await next();
  };
}

/** Runs the auth hook; the user it (or `identify`) names is who asks. */
function hookGuard(
  hook: AuthHook,
  identify: ResolvedOptions["identify"],
): MiddlewareHandler<UserEnv> {
  return async function authHook(c, next) {
    const answer = await hook(c.req.raw);
    if (answer instanceof Response) {
      c.set("refusedByHook", true);
      return answer;
    }
    const user = identify ? await identify(c.req.raw) : answer;
    if (user) {
      c.set("user", userName(user));
      c.set("identity", user);
    }
    await next();
  };
}

/** How to find the task holding a job on `source`: its own lookup, or else its job read. */
function jobTaskOf(source: TaskSource): (jobId: string) => Promise<string | null> {
  if (source.findJobTask) return source.findJobTask.bind(source);
  return async (jobId) => (await source.getJob(jobId))?.task ?? null;
}

/** How sessions of session login `auth` are signed and scoped. */
function sessionConfig(auth: ResolvedSessionAuth, resolved: ResolvedOptions): SessionConfig {
  return {
    cookieName: auth.cookieName,
    secret: auth.cookiePassword,
    ttlMs: auth.sessionTtlMs,
    maxAgeMs: auth.maxSessionAgeMs,
    path: resolved.basePath,
    trustProxy: resolved.trustProxy,
    now: () => Date.now(),
  };
}

/** The document the MCP tools are made from needs no more than its routes. */
const MCP_INFO = { title: "queue-board API", version: "1" };

/**
 * The lease of the board's own background work: stats frames, latency
 * samples, the bulk operations' sweep, backlog samples.
 */
const BOARD_LEASE = "board";

/**
 * The alert evaluator's lease, apart from the board's: only boards with an
 * alerts configuration compete for it, since the rules and sinks of a file
 * or the option are known only to the boards that read them. Under the
 * board's lease, a board without them that led left every rule unevaluated.
 */
const ALERTS_LEASE = "alerts";

/**
 * Creates the board for a task system.
 *
 * @param source the taskora App (what `createTaskora()` returns: the board then
 *   reuses its Redis connection and prefix, and knows each task's version,
 *   `since` and configuration), a Redis URL that taskora writes to, or a
 *   {@link TaskSource} (e.g. `createMemorySource()`)
 * @param options see {@link BoardOptions}; a bad option throws naming it
 *
 * @example Standalone on Deno
 * ```ts ignore
 * // Not run as a test: it needs a Redis and listens on a port.
 * import { createBoard } from "@x/queue-board";
 * const board = createBoard("redis://127.0.0.1:6379", { readOnly: true });
 * board.listen({ port: 3000, hostname: "127.0.0.1" });
 * // queue-board listening on http://127.0.0.1:3000/board (mutations off, login off, redaction off)
 * ```
 *
 * @example A bad option throws when the board is created, naming it
 * ```ts
 * import assert from "node:assert/strict";
 * import { BoardOptionsError, createBoard, createMemorySource } from "@x/queue-board";
 *
 * assert.throws(
 *   () => createBoard(createMemorySource(), { refreshInterval: 10 }),
 *   (error) => error instanceof BoardOptionsError && /refreshInterval/.test(error.message),
 * );
 * ```
 */
export function createBoard(
  source: TaskoraApp | TaskSource | string,
  options: BoardOptions = {},
): Board {
  return createBoardOn(systemTimers, source, options);
}

/**
 * {@link createBoard} whose event hub runs on `timers`: tests pass fake ones
 * and move them instead of waiting. Not part of the package's API.
 */
export function createBoardOn(
  timers: Timers,
  source: TaskoraApp | TaskSource | string,
  options: BoardOptions = {},
): Board {
  const resolved = resolveOptions(options);
  const { source: taskSource, owned } = resolveSource(source);
  const present = createPresenter(resolved);
  const login = resolved.auth !== null && typeof resolved.auth === "object" ? resolved.auth : null;
  const session = login && sessionConfig(login, resolved);
  const leadership = new Leadership(leaseOf(taskSource, BOARD_LEASE), { timers });
  // The one background job that runs unwatched, so only when there are rules, or sinks that
  // rules stored through the API may tell.
  const evaluates = resolved.alerts !== null &&
    (resolved.alerts.rules.length > 0 || resolved.alerts.sinks.length > 0);
  const alertLeadership = evaluates
    ? new Leadership(leaseOf(taskSource, ALERTS_LEASE), { timers })
    : null;
  const events = createEventHub(taskSource, present, {
    statsIntervalMs: resolved.statsInterval,
    timers,
    leads: () => leadership.leads(),
    alerts: resolved.alerts !== null,
    evaluatesAlerts: () => alertLeadership?.isLeading ?? false,
  });
  const audit = createAuditTrail(taskSource, resolved.auditMaxEntries, {
    maxAgeMs: resolved.auditMaxAgeMs,
  });
  const deps = {
    source: taskSource,
    options: resolved,
    present,
    startedAt: Date.now(),
    timers,
    clock: epochClock(timers),
    events,
    audit,
    latency: createLatencySampler(taskSource, { leadership, now: epochClock(timers) }),
    leadership,
    operations: new Operations(
      operationHooks({ source: taskSource, options: resolved, present, events, audit }),
      { timers, takeOver: !resolved.readOnly, leads: () => leadership.leads() },
    ),
    scans: new ScanSlots(taskSource, { timers }),
    sessions: session
      ? {
        revoker: createSessionRevoker(taskSource, session.now),
        clear: (c: Context) => clearSession(c, session),
      }
      : undefined,
  };
  // Once a minute on the leader: the drain forecast's backlog 10 and 60 minutes ago.
  const backlog = startBacklogSampler({
    source: taskSource,
    leadership,
    timers,
    clock: deps.clock,
  });
  const alerts = resolved.alerts && alertLeadership
    ? startAlertEvaluator({
      source: taskSource,
      config: resolved.alerts,
      leadership: alertLeadership,
      timers,
      clock: epochClock(timers),
      liveMaxAgeMs: resolved.statsInterval,
      basePath: resolved.basePath,
      // Notices end a pass or more after the board is made: `metrics` is set by then.
      onDelivery: (delivery) => metrics?.countNotice(delivery),
      onDropped: (sink) => metrics?.countDroppedNotice(sink),
      onEvaluated: (status, silences) => events.alertsEvaluated(status, silences),
    })
    : null;
  const apiPath = resolved.basePath === "/" ? "/api" : `${resolved.basePath}/api`;
  const metrics = resolved.metrics
    ? createBoardMetrics({
      ...deps,
      sseClients: () => deps.events.state().clients,
      maxTasks: resolved.metrics.maxTasks,
      liveMaxAgeMs: resolved.statsInterval,
      alerts: resolved.alerts,
      alertQueues: () => alerts?.queued() ?? new Map(),
    })
    : null;
  const serveMetrics = async (c: Context) => {
    const { text, contentType } = await metrics!.scrape();
    return c.body(text, 200, { "Content-Type": contentType, "Cache-Control": "no-store" });
  };

  const routes = createApi(deps);
  const audited = auditedRoutes(routes);
  const api = new Hono();
  api.onError(countingErrors(metrics));
  if (metrics) api.use("*", metrics.timing);
  api.use("*", bodyLimit({ maxSize: API_BODY_LIMIT, onError: bodyTooLarge }));
  if (typeof resolved.auth === "function") {
    api.use("*", hookGuard(resolved.auth, resolved.identify));
  }
  if (resolved.readOnly) api.use("*", readOnlyGuard(`${apiPath}/sessions/`));
  // After who asks is known and the read-only guard (it wins), before the route's audit entry.
  if (resolved.auth !== null) {
    api.use(
      "*",
      permissionGuard({
        can: resolved.can,
        mountPath: apiPath,
        routes: guardedRoutes(routes),
        jobTask: resolved.can === presetCan ? undefined : jobTaskOf(taskSource),
      }),
    );
  }
  // After the read-only guard (a read-only board performs no mutation), before every other refusal.
  api.use(
    "*",
    auditMutations({
      trail: deps.audit,
      present,
      mountPath: apiPath,
      trustProxy: resolved.trustProxy,
      routes: audited,
    }),
  );
  api.use("*", jsonMutations());
  api.use("*", migrationGuard(taskSource));
  api.route("/", routes);
  api.all(
    "*",
    routeFallback(api, {
      mountPath: apiPath,
      preflight: !!resolved.cors,
      json: true,
    }),
  );

  const app = new Hono();
  app.onError(onError);
  app.use("*", secureHeaders(securityHeaders(resolved)));
  // Job data, with or without a session; refusals too, before any guard answers.
  app.use("/api/*", noStore());
  // Before every route, the preflight included: a rebinding page reads whatever is answered.
  app.use("*", allowedHosts({ hosts: resolved.allowedHosts, trustProxy: resolved.trustProxy }));
  // The MCP endpoint's tool calls: marked for the trail before any guard can refuse them.
  const mcpCalls = new McpCalls();
  app.use("/api/*", mcpCalls.identify);
  // Before every guard: what they turn away is recorded (rate-limited per client); a
  // read-only board writes no trail.
  if (!resolved.readOnly) {
    const refusals = auditRefusals({
      trail: deps.audit,
      present,
      basePath: resolved.basePath,
      trustProxy: resolved.trustProxy,
      routes: audited,
    });
    app.use("/api/*", refusals);
    app.use("/auth/*", refusals);
    app.use("/metrics", refusals);
  }
  // First: a browser sends a preflight without the session cookie, so no guard may answer it.
  if (resolved.cors) {
    app.use(
      "/api/*",
      cors({ origin: resolved.cors.origin, credentials: true, exposeHeaders: ["X-Total-Count"] }),
    );
  }
  // Before the session guard and the auth hook: a forged request runs no authentication.
  const sameOriginGuard = sameOrigin({
    origins: [resolved.cors?.origin ?? []].flat(),
    hosts: resolved.allowedHosts,
    trustProxy: resolved.trustProxy,
  });
  app.use("/api/*", sameOriginGuard);
  app.use("/auth/*", sameOriginGuard);
  // Before the session guard: a scraper with the token needs no session.
  if (metrics && resolved.metrics?.token) {
    app.use(
      "/metrics",
      metricsToken({
        token: resolved.metrics.token,
        guard: resolved.auth === null
          ? "none"
          : typeof resolved.auth === "function"
          ? "hook"
          : "session",
        serve: serveMetrics,
      }),
    );
  }
  // Before the session guard: the endpoint asks the API who the caller is (its tool calls go
  // through every guard below), so an MCP client gets the API's 401, not the login page.
  if (resolved.mcp) {
    app.use("/mcp", sameOriginGuard);
    app.all(
      "/mcp",
      mcpEndpoint({
        fetch: (request, env) => fetch(request, env),
        apiPath,
        actions: resolved.mcp.actions,
        document: () => routes.getOpenAPI31Document({ openapi: "3.1.0", info: MCP_INFO }),
        name: resolved.title,
        maxBodyBytes: API_BODY_LIMIT,
        tokens: resolved.mcp.tokens,
        calls: mcpCalls,
      }),
    );
  }
  if (login && session && deps.sessions) {
    // Everything the session guards (the UI, the metrics) but the public, immutable assets.
    const assetsPath = resolved.basePath === "/" ? "/assets/" : `${resolved.basePath}/assets/`;
    app.use("*", noStore({ except: (c) => c.req.path.startsWith(assetsPath) }));
    // An agent signed in by its token (`mcp.tokens`) is the session's user of the API
    // requests the MCP endpoint makes for it (`mcpCalls.identify`); nothing else passes
    // without a session.
    app.use(
      "*",
      except(
        mcpCalls.isAgentCall,
        sessionGuard(session, resolved.basePath, deps.sessions.revoker),
      ),
    );
    app.route(
      "/",
      loginRoutes({
        session,
        authenticate: login.authenticate,
        basePath: resolved.basePath,
        title: resolved.title,
        logo: resolved.logo,
        throttle: login.loginThrottle && createLoginThrottle(login.loginThrottle, session.now),
        onFailedLogin: (failure) => {
          metrics?.countLoginFailure(failure.reason);
          recordFailedLogin(deps.audit, failure, session.now());
        },
        revoker: deps.sessions.revoker,
      }),
    );
  }
  app.route("/api", api);
  if (metrics) {
    const scrape = new Hono();
    scrape.onError(countingErrors(metrics));
    if (typeof resolved.auth === "function") {
      scrape.use("*", hookGuard(resolved.auth, resolved.identify));
    }
    if (resolved.auth !== null) {
      // A scraper with the token was served before: whoever is here signed in (or the hook let in).
      scrape.use(
        "*",
        permissionGuard({
          can: resolved.can,
          mountPath: "",
          routes: () => ({ action: "metrics.read", target: "*", task: null }),
        }),
      );
    }
    app.route("/metrics", scrape.get("/", serveMetrics));
  }
  app.route("/", serveUi(resolved));
  app.all("*", routeFallback(app, { mountPath: resolved.basePath }));

  const root = resolved.basePath === "/" ? app : new Hono().route(resolved.basePath, app);
  // The connection goes on as Hono's env: the socket address for login throttling (Deno's
  // ServeHandlerInfo, or @hono/node-server's bindings through `handler`).
  const fetch = (request: Request, info?: unknown) => root.fetch(request, info);

  return {
    app,
    fetch,
    handler: nodeListener(fetch),
    listen: (listenOptions) => listen(fetch, resolved, listenOptions),
    async close() {
      await deps.operations.close();
      deps.audit.close();
      await deps.events.close();
      await alerts?.close();
      backlog?.close();
      await leadership.close();
      await alertLeadership?.close();
      if (owned) await taskSource.close();
    },
  };
}
