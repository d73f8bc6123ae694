/**
 * The agents' bearer tokens (`mcp.tokens`): each a board user, configured by
 * the SHA-256 of the token (hex), so the options never hold a token itself.
 * A presented token is hashed and compared with every digest in constant time.
 *
 * @module
 */

import { timingSafeEqual } from "hono/utils/buffer";
import type { BoardUser } from "../options.ts";

/** What a request's `Authorization` says of an agent. */
export type AgentCredential =
  /** No bearer token: the request authenticates otherwise (a session cookie). */
  | { kind: "none" }
  /** A bearer token no agent holds. */
  | { kind: "unknown" }
  /** The agent holding the token. */
  | { kind: "agent"; user: BoardUser };

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/**
 * The agent whose token `authorization` carries, among `tokens` (SHA-256 hex
 * → user). Every digest is compared, whichever matches.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { agentOf } from "./agent_tokens.ts";
 *
 * // sha256("s3cret-agent-token")
 * const digest = "ae30582fa821c0da8c83c781b4755829fb7f21bd861d07e69f745586c79ae2e2";
 * const tokens = new Map([[digest, { name: "oncall-agent" }]]);
 * assert.deepEqual(await agentOf(undefined, tokens), { kind: "none" });
 * assert.deepEqual(await agentOf("Bearer s3cret-agent-token", tokens), {
 *   kind: "agent",
 *   user: { name: "oncall-agent" },
 * });
 * assert.deepEqual(await agentOf("Bearer wrong", tokens), { kind: "unknown" });
 * ```
 */
export async function agentOf(
  authorization: string | undefined,
  tokens: ReadonlyMap<string, BoardUser>,
): Promise<AgentCredential> {
  const match = authorization === undefined ? null : /^Bearer ([\x21-\x7e]+)$/i.exec(authorization);
  if (!match) return { kind: "none" };
  const presented = await sha256Hex(match[1]);
  let found: BoardUser | null = null;
  for (const [digest, user] of tokens) {
    if (await timingSafeEqual(presented, digest)) found = user;
  }
  return found ? { kind: "agent", user: found } : { kind: "unknown" };
}
