/**
 * `{basePath}/mcp`: the board as an MCP server over Streamable HTTP (the
 * SDK's web-standard transport, stateless: a server and a transport per
 * request, answers as JSON), so it serves under `Deno.serve`, `listen`, a
 * Hono host or Deno Deploy alike and any replica answers any request.
 *
 * Every tool is an API route called in-process as the caller (see
 * `route_call.ts`): authentication, permission, read-only, redaction,
 * `payload.read` and the audit trail are the API's own. Who the caller is and
 * what they may do comes from `GET /api/config` asked as them first: a caller
 * the API turns away gets the API's answer (401 under session login, the auth
 * hook's own), never an anonymous session.
 *
 * @module
 */

import type { Context } from "hono";
// The low-level server: the tools' schemas are JSON Schemas from the OpenAPI document,
// which McpServer (zod shapes only) cannot take.
import {
  type CallToolRequest,
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  Server,
  type Tool,
  WebStandardStreamableHTTPServerTransport,
} from "./sdk.ts";
import type { ConfigResponse } from "../contract/config.ts";
import type { OverviewResponse } from "../contract/overview.ts";
import { UNAUTHORIZED_BODY } from "../auth/guard.ts";
import type { BoardUser } from "../options.ts";
import type { McpCalls } from "./mcp_calls.ts";
import { agentOf } from "./agent_tokens.ts";
import { bulkConfirmation } from "./bulk_confirmation.ts";
import { type ApiDocument, type RouteTool, routeTools } from "./catalogue.ts";
import { healthReport } from "./health_report.ts";
import { type BoardFetch, callRoute, type RouteAnswer } from "./route_call.ts";

/** The tool that is no route: the report built from the overview. */
export const HEALTH_REPORT_TOOL: Tool = {
  name: "health_report",
  description: "Which tasks need attention and why, stated from the board's figures: backlog, " +
    "oldest waiting job, the health verdict's reason (no worker taking jobs, failure rate, " +
    "overdue jobs) and failures against the last hour's pace. One overview read.",
  inputSchema: { type: "object", properties: {} },
};

/** Options of {@link mcpEndpoint}. */
export interface McpEndpointOptions {
  /** The board's own handler (under its base path): where tool calls go. */
  fetch: BoardFetch;
  /** The API's path (`/board/api`). */
  apiPath: string;
  /** Whether tools that change the queue exist (`mcp.actions`). */
  actions: boolean;
  /** The API's OpenAPI document, built once when first asked for. */
  document: () => ApiDocument;
  /** The server's name for clients (the board's title). */
  name: string;
  /** The largest request body read (the API's). */
  maxBodyBytes: number;
  /** The agents' tokens (`mcp.tokens`: SHA-256 hex → user); empty without. */
  tokens: ReadonlyMap<string, BoardUser>;
  /** Where the endpoint's API requests are registered (marked `via: "mcp"`, a token's agent named). */
  calls: McpCalls;
}

const BULK_START = "POST /bulk";

/** A tool result: the HTTP status, then the answer as the API gave it. */
function resultOf(answer: RouteAnswer, extra?: Record<string, unknown>): CallToolResult {
  const body = typeof answer.body === "string"
    ? answer.body
    : JSON.stringify(extra ? { ...answer.body as object, ...extra } : answer.body, null, 2);
  return {
    content: [{ type: "text", text: `HTTP ${answer.status}\n${body}` }],
    isError: answer.status >= 400,
  };
}

function refusal(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

/** The description and schema a client sees of a route's tool. */
function listed(tool: RouteTool): Tool {
  if (`${tool.method} ${tool.path}` !== BULK_START) {
    return { name: tool.name, description: tool.description, inputSchema: tool.inputSchema };
  }
  return {
    name: tool.name,
    description: `${tool.description}\n\nCall it with \`body.dryRun: true\` first: the count ` +
      "it answers comes with `confirm`, which starting the same selection needs.",
    inputSchema: {
      ...tool.inputSchema,
      properties: {
        ...tool.inputSchema.properties as object,
        confirm: { type: "string", description: "What the dry run of this selection answered." },
      },
    },
  };
}

/**
 * The handler of `{basePath}/mcp`. Only POST: a stateless server keeps no
 * session to stream to (GET) or end (DELETE); those are 405.
 */
export function mcpEndpoint(options: McpEndpointOptions): (c: Context) => Promise<Response> {
  let catalogue: RouteTool[] | undefined;
  const tools = () => catalogue ??= routeTools(options.document());

  return async function mcp(c) {
    if (c.req.method !== "POST") {
      const error =
        "Only POST: this MCP server is stateless (no stream to open, no session to end)";
      return c.json({ error, code: "METHOD_NOT_ALLOWED" }, 405, { Allow: "POST" });
    }
    const caller = c.req.raw;
    const credential = options.tokens.size === 0
      ? { kind: "none" as const }
      : await agentOf(c.req.header("authorization"), options.tokens);
    if (credential.kind === "unknown") {
      c.header("WWW-Authenticate", 'Bearer realm="queue-board mcp"');
      return c.json(UNAUTHORIZED_BODY, 401);
    }
    const agent = credential.kind === "agent" ? credential.user : null;
    const fetch: BoardFetch = (request, env) => {
      options.calls.register(request, agent);
      return options.fetch(request, env);
    };
    const apiUrl = new URL(options.apiPath, caller.url);
    const call = (tool: Parameters<typeof callRoute>[4], args: Record<string, unknown>) =>
      callRoute(fetch, caller, c.env, apiUrl, tool, args);

    const config = await call(
      { method: "GET", path: "/config", params: [], accept: "application/json" },
      {},
    );
    if (config.status !== 200) {
      // The API's refusal as it gave it (a hook's `WWW-Authenticate` or redirect included).
      const text = typeof config.body === "string" ? config.body : JSON.stringify(config.body);
      const headers = new Headers(config.headers);
      headers.delete("content-length");
      return new Response(text, { status: config.status, headers });
    }
    const allowed = new Set<string>((config.body as ConfigResponse).allowed);
    // Without `mcp.actions` no mutation is a tool; with it, a caller sees those they may do,
    // as the reads that need a permission, and one called anyway is the API's to refuse (and
    // to record).
    const callable = tools().filter((tool) => tool.action === null || options.actions);
    const visible = callable.filter((tool) => {
      const needs = tool.action ?? tool.permission;
      return needs === null || allowed.has(needs);
    });

    const server = new Server({ name: options.name, version: "1" }, {
      capabilities: { tools: {} },
    });
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: [HEALTH_REPORT_TOOL, ...visible.map(listed)],
    }));
    server.setRequestHandler(CallToolRequestSchema, async (request: CallToolRequest) => {
      const { name, arguments: args = {} } = request.params;
      if (name === HEALTH_REPORT_TOOL.name) {
        const overview = await call(
          { method: "GET", path: "/overview", params: [], accept: "application/json" },
          {},
        );
        if (overview.status !== 200) return resultOf(overview);
        return {
          content: [{ type: "text", text: healthReport(overview.body as OverviewResponse) }],
        };
      }
      const tool = callable.find((one) => one.name === name);
      if (!tool) return refusal(`No tool ${JSON.stringify(name)} on this board`);
      if (`${tool.method} ${tool.path}` !== BULK_START) return resultOf(await call(tool, args));
      const body = args.body as { dryRun?: unknown } | undefined;
      const confirm = await bulkConfirmation(body);
      if (body?.dryRun === true) {
        const answer = await call(tool, args);
        return resultOf(answer, answer.status === 200 ? { confirm } : undefined);
      }
      if (args.confirm !== confirm) {
        return refusal(
          "Not started: run this selection with body.dryRun: true first, and start it with " +
            "the `confirm` its answer carries",
        );
      }
      return resultOf(await call(tool, args));
    });

    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      maxRequestBodySize: options.maxBodyBytes,
    });
    await server.connect(transport);
    try {
      return await transport.handleRequest(caller);
    } finally {
      await server.close();
    }
  };
}
