/**
 * The parts of the MCP SDK (`@modelcontextprotocol/sdk`) the board uses, with
 * their types. The SDK's package exports map `./*` to `./dist/esm/*` for code
 * but to `./dist/esm/*.d.ts` for types, so `…/types.js` finds its code and no
 * types (`types.js.d.ts`), and `…/types` its types and no code: each import
 * names the code, and `@ts-types` its types. (`./server` has an entry of its
 * own, with both.)
 *
 * @module
 */

export { Server } from "@modelcontextprotocol/sdk/server";
// @ts-types="@modelcontextprotocol/sdk/server/webStandardStreamableHttp"
export { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
export {
  type CallToolRequest,
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
