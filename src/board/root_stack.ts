/**
 * The board's root layers, relative to the base path: the headers and
 * checks every request meets, the guards in the order they must answer, then
 * the API, the metrics, the UI. A preflight is answered before any guard (it
 * carries no cookie); a forged or rebinding request is refused before any
 * authentication runs; what a guard turns away is on the trail.
 *
 * @module
 */

import type { OpenAPIHono } from "@hono/zod-openapi";
import type { ErrorHandler, Hono, MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import { auditRefusals } from "../audit/gate.ts";
import { auditedRoutes } from "../audit/route_actions.ts";
import { allowedHosts } from "../auth/allowed_hosts.ts";
import { metricsToken } from "../auth/metrics_token.ts";
import { sameOrigin } from "../auth/same_origin.ts";
import { mcpEndpoint } from "../mcp/endpoint.ts";
import { noStore } from "../no_store.ts";
import type { ResolvedOptions } from "../options.ts";
import { serveUi } from "../static.ts";
import { apiPathOf } from "./api_stack.ts";
import { API_BODY_LIMIT } from "./body_limit.ts";
import { countingErrors } from "./error_handler.ts";
import { securityHeaders } from "./security_headers.ts";
import { serveMetrics } from "./metrics_stack.ts";
import type { BoardServices } from "./services.ts";
import { sessionLayers } from "./session_stack.ts";
import type { Layer, Stack } from "./stack.ts";

/** What the root mounts, and how the MCP endpoint calls the board. */
export interface RootParts {
  /** The API's routes (`createApi`): what the trail's refusals and the MCP tools are read from. */
  routes: OpenAPIHono;
  /** The API app, mounted at `/api`. */
  api: Hono;
  /** The metrics app, mounted at `/metrics`; null with `metrics: false`. */
  metrics: Hono | null;
  /** The board's own `fetch`: the MCP endpoint's tool calls go through every guard. */
  fetch: (request: Request, env?: unknown) => Response | Promise<Response>;
}

/** The document the MCP tools are made from needs no more than its routes. */
const MCP_INFO = { title: "queue-board API", version: "1" };

/** Who `metricsToken` sends a request without the token on to. */
function otherGuard(auth: ResolvedOptions["auth"]): "none" | "hook" | "session" {
  if (auth === null) return "none";
  return typeof auth === "function" ? "hook" : "session";
}

/** The scrape of a scraper with the metrics token; null without a token. */
function metricsTokenLayer({ options, metrics }: BoardServices): Layer | null {
  const token = options.metrics?.token;
  if (!metrics || !token) return null;
  return {
    name: "metrics token",
    on: ["/metrics"],
    use: metricsToken({ token, guard: otherGuard(options.auth), serve: serveMetrics(metrics) }),
  };
}

/**
 * The MCP endpoint's layers: before the session guard, since the endpoint asks
 * the API who the caller is (its tool calls go through every guard), so an MCP
 * client gets the API's 401, not the sign-in page.
 */
function mcpLayers(
  services: BoardServices,
  parts: RootParts,
  sameOriginCheck: MiddlewareHandler,
): Layer[] {
  const { options } = services;
  if (!options.mcp) return [];
  return [
    { name: "same origin (mcp)", on: ["/mcp"], use: sameOriginCheck },
    {
      name: "mcp endpoint",
      on: ["/mcp"],
      use: mcpEndpoint({
        fetch: parts.fetch,
        apiPath: apiPathOf(options.basePath),
        actions: options.mcp.actions,
        document: () => parts.routes.getOpenAPI31Document({ openapi: "3.1.0", info: MCP_INFO }),
        name: options.title,
        maxBodyBytes: API_BODY_LIMIT,
        tokens: options.mcp.tokens,
        calls: services.mcpCalls,
      }),
    },
  ];
}

/** The root's layers. */
export function rootStack(
  services: BoardServices,
  parts: RootParts,
): Stack & { onError: ErrorHandler } {
  const { options } = services;
  const { trustProxy } = options;
  const sameOriginCheck = sameOrigin({
    origins: [options.cors?.origin ?? []].flat(),
    hosts: options.allowedHosts,
    trustProxy,
  });
  return {
    // Every app's errors, the API's and the scrape's included: the store's are counted.
    onError: countingErrors(services.metrics),
    layers: [
      { name: "security headers", use: securityHeaders(options) },
      // Job data, with or without a session; refusals too, before any guard answers.
      { name: "no-store (api)", on: ["/api/*"], use: noStore() },
      // Before every route, the preflight included: a rebinding page reads whatever is answered.
      { name: "allowed hosts", use: allowedHosts({ hosts: options.allowedHosts, trustProxy }) },
      // The MCP endpoint's tool calls: marked for the trail before any guard can refuse them.
      { name: "mcp calls", on: ["/api/*"], use: services.mcpCalls.identify },
      // Before every guard: what they turn away is recorded (rate-limited per client); a
      // read-only board writes no trail.
      !options.readOnly && {
        name: "audit refusals",
        on: ["/api/*", "/auth/*", "/metrics"],
        use: auditRefusals({
          trail: services.audit,
          present: services.present,
          basePath: options.basePath,
          trustProxy,
          routes: auditedRoutes(parts.routes),
        }),
      },
      // First among the guards: a browser sends a preflight without the session cookie.
      options.cors && {
        name: "cors",
        on: ["/api/*"],
        use: cors({
          origin: options.cors.origin,
          credentials: true,
          exposeHeaders: ["X-Total-Count"],
        }),
      },
      // Before the session guard and the auth hook: a forged request runs no authentication.
      { name: "same origin", on: ["/api/*", "/auth/*"], use: sameOriginCheck },
      // Before the session guard: a scraper with the token needs no session.
      metricsTokenLayer(services),
      ...mcpLayers(services, parts, sameOriginCheck),
      ...sessionLayers(services),
      { name: "api", at: "/api", mount: parts.api },
      parts.metrics && { name: "metrics", at: "/metrics", mount: parts.metrics },
      { name: "ui", at: "/", mount: serveUi(options) },
      { name: "fallback", fallback: { mountPath: options.basePath } },
    ],
  };
}
