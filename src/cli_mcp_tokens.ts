/**
 * The CLI's agents' tokens file (`--mcp-tokens FILE`): a JSON object mapping
 * the SHA-256 (hex) of each agent's token to the username it acts as, one of
 * the users session login signs in (`--users`, or `BOARD_USERNAME`). The
 * agent gets that user's role, so the file holds no roles and no tokens of its
 * own: `mcp.tokens` is built from it.
 *
 * @module
 */

import type { BoardUser } from "./options.ts";

/** The most tokens a file may give: each request compares every digest. */
export const MAX_MCP_TOKENS = 100;

/**
 * `mcp.tokens` from a tokens file's text, the users by name; throws an Error
 * naming the entry that is wrong.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseMcpTokens } from "./cli_mcp_tokens.ts";
 *
 * const digest = "ae30582fa821c0da8c83c781b4755829fb7f21bd861d07e69f745586c79ae2e2";
 * const users = new Map([["ops", { name: "ops", role: "operator" }]]);
 * assert.deepEqual(parseMcpTokens(JSON.stringify({ [digest]: "ops" }), users), {
 *   [digest]: { name: "ops", role: "operator" },
 * });
 * assert.throws(() => parseMcpTokens(JSON.stringify({ [digest]: "eve" }), users), /"eve" is no user/);
 * ```
 */
export function parseMcpTokens(
  text: string,
  users: ReadonlyMap<string, BoardUser>,
): Record<string, BoardUser> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new Error(`not JSON (${(error as Error).message})`);
  }
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    throw new Error('must be an object: { "<SHA-256 hex of a token>": "<username>" }');
  }
  const entries = Object.entries(raw);
  if (entries.length === 0 || entries.length > MAX_MCP_TOKENS) {
    throw new Error(`must give at least one token and at most ${MAX_MCP_TOKENS}`);
  }
  const tokens: Record<string, BoardUser> = {};
  for (const [key, username] of entries) {
    if (!/^[0-9a-fA-F]{64}$/.test(key)) {
      throw new Error(
        `${JSON.stringify(key.slice(0, 80))} must be a token's SHA-256: 64 hex digits ` +
          '(printf %s "$TOKEN" | sha256sum)',
      );
    }
    // sha256sum prints lower case; the board compares lower case.
    const digest = key.toLowerCase();
    if (digest in tokens) throw new Error(`${digest.slice(0, 8)}… is given twice`);
    if (typeof username !== "string") {
      throw new Error(`${digest.slice(0, 8)}…: the value must be a username (a string)`);
    }
    const user = users.get(username);
    if (!user) {
      throw new Error(
        `${digest.slice(0, 8)}…: ${JSON.stringify(username)} is no user of the login ` +
          `(${[...users.keys()].join(", ")})`,
      );
    }
    tokens[digest] = user;
  }
  return tokens;
}
