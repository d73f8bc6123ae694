/**
 * The MCP SDK's client, with its types (see `src/mcp/sdk.ts` for why the
 * transport's import names its types apart).
 *
 * @module
 */

export { Client } from "@modelcontextprotocol/sdk/client";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
export { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
