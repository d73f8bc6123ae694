/**
 * A tool call as an API request, made in-process through the board's own
 * `fetch`: the caller's headers (cookie, authorization, host, origin) go
 * with it, so the API's guards (allowed hosts, same origin, session or auth
 * hook, permission, read-only, audit, redaction) decide exactly as they do
 * for the same request over HTTP.
 *
 * @module
 */

import type { RouteTool } from "./catalogue.ts";

/** The board's web-standard handler, with the connection the caller came on. */
export type BoardFetch = (request: Request, env?: unknown) => Response | Promise<Response>;

/** An API answer, as a tool hands it on. */
export interface RouteAnswer {
  status: number;
  headers: Headers;
  /** The body: parsed JSON, or the text of anything else (NDJSON lines). */
  body: unknown;
}

/** The caller's headers that are about the MCP exchange, not about who calls or from where. */
const EXCHANGE_HEADERS = [
  "accept",
  "accept-encoding",
  "content-length",
  "content-type",
  "connection",
  "last-event-id",
  "mcp-protocol-version",
  "mcp-session-id",
  "transfer-encoding",
];

/** What an API request made for `caller` carries of it. */
function forwardedHeaders(caller: Request): Headers {
  const headers = new Headers(caller.headers);
  for (const name of EXCHANGE_HEADERS) headers.delete(name);
  return headers;
}

/** The URL of `tool`'s route with `args` in its path and query. */
function routeUrl(
  apiUrl: URL,
  tool: Pick<RouteTool, "path" | "params">,
  args: Record<string, unknown>,
): URL {
  let path = tool.path;
  const query = new URLSearchParams();
  for (const param of tool.params) {
    const value = args[param.name];
    if (value === undefined || value === null) continue;
    const values = Array.isArray(value) ? value : [value];
    if (param.in === "path") {
      path = path.replace(`{${param.name}}`, encodeURIComponent(String(values[0])));
    } else {
      for (const one of values) query.append(param.name, String(one));
    }
  }
  const url = new URL(`${apiUrl.pathname}${path}`, apiUrl);
  url.search = query.toString();
  return url;
}

/**
 * Calls `tool`'s route as `caller` would: `apiUrl` is the API's URL on the
 * caller's origin; `env` the connection the caller came on (its address
 * goes to the audit trail's per-client limit).
 */
export async function callRoute(
  fetch: BoardFetch,
  caller: Request,
  env: unknown,
  apiUrl: URL,
  tool: Pick<RouteTool, "method" | "path" | "params" | "accept">,
  args: Record<string, unknown>,
): Promise<RouteAnswer> {
  const headers = forwardedHeaders(caller);
  headers.set("accept", tool.accept);
  const hasBody = tool.method !== "GET" && tool.method !== "HEAD";
  if (hasBody) headers.set("content-type", "application/json");
  const request = new Request(routeUrl(apiUrl, tool, args), {
    method: tool.method,
    headers,
    body: hasBody ? JSON.stringify(args.body ?? {}) : undefined,
    signal: caller.signal,
  });
  const response = await fetch(request, env);
  const text = await response.text();
  const json = response.headers.get("content-type")?.startsWith("application/json");
  return {
    status: response.status,
    headers: response.headers,
    body: json && text !== "" ? JSON.parse(text) : text,
  };
}
