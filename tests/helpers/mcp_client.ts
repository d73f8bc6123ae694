/**
 * The MCP SDK's client for tests (see `src/mcp/sdk.ts` for why the
 * transport's import names its types apart): connected to a board's
 * `/board/mcp` through its `fetch` or over a URL, with the caller's headers.
 *
 * @module
 */

import { Client } from "@modelcontextprotocol/sdk/client";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "../../src/mcp/sdk.ts";

export { Client };

/** A board served in-process (its `fetch`, at `http://board.test`), or a URL it listens on. */
export type McpTarget =
  | { board: { fetch(request: Request): Response | Promise<Response> } }
  | { url: string };

/** A client of `target` sending `headers` (a bearer token, a session cookie). */
export async function connect(target: McpTarget, headers: Record<string, string>): Promise<Client> {
  const url = "url" in target ? target.url : "http://board.test/board/mcp";
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers },
    ...("board" in target && {
      fetch: (input: string | URL, init?: RequestInit) =>
        Promise.resolve(target.board.fetch(new Request(input, init))),
    }),
  });
  const client = new Client({ name: "test-agent", version: "1" });
  await client.connect(transport);
  return client;
}

/** Runs `run` with a connected client, closed after. */
export async function withClient(
  target: McpTarget,
  headers: Record<string, string>,
  run: (client: Client) => Promise<void>,
): Promise<void> {
  const client = await connect(target, headers);
  try {
    await run(client);
  } finally {
    await client.close();
  }
}

/** The names of the tools `client` is listed. */
export async function toolNames(client: Client): Promise<string[]> {
  const { tools } = await client.listTools();
  return tools.map((tool: { name: string }) => tool.name);
}

/** A tool result's text. */
export function textOf(result: unknown): string {
  const { content } = result as CallToolResult;
  return content.map((part: { type: string; text?: string }) =>
    part.type === "text" ? part.text : ""
  ).join("");
}

/** The API's answer in a tool result: the JSON after its `HTTP <status>` line. */
export function answerOf(result: unknown): Record<string, unknown> {
  return JSON.parse(textOf(result).split("\n").slice(1).join("\n"));
}
