/**
 * The API requests the MCP endpoint makes for its tool calls, known by the
 * request object itself, which only the endpoint can register (nothing from
 * the network reaches this map). Each is marked as come through MCP, for the
 * audit trail (`via: "mcp"`). One made for an agent signed in with its token
 * (`mcp.tokens`) carries no cookie: the agent is its session's user, and the
 * session guard stands aside; every other guard (permission, read-only,
 * audit) runs as for any request.
 *
 * @module
 */

import type { Context, MiddlewareHandler } from "hono";
import type { SessionEnv } from "../auth/session.ts";
import { type UserEnv, userName } from "../auth/user.ts";
import type { BoardUser } from "../options.ts";

/** The MCP endpoint's in-process requests of one board. */
export class McpCalls {
  #calls = new WeakMap<Request, BoardUser | null>();

  /** Marks `request` as a tool call's, made for `agent` when a token signed it in. */
  register(request: Request, agent: BoardUser | null): void {
    this.#calls.set(request, agent);
  }

  /** Whether the request is one made for a token agent (the session guard's exception). */
  isAgentCall = (c: Context): boolean => (this.#calls.get(c.req.raw) ?? null) !== null;

  /** Marks a tool call's request `via: "mcp"`, and names a token agent as its user. */
  identify: MiddlewareHandler<SessionEnv & UserEnv> = async (c, next) => {
    if (this.#calls.has(c.req.raw)) {
      c.set("via", "mcp");
      const agent = this.#calls.get(c.req.raw);
      if (agent) {
        c.set("user", userName(agent));
        c.set("sessionUser", agent);
      }
    }
    await next();
  };
}
