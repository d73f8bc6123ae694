/**
 * The API requests the MCP endpoint makes for an agent that signed in with
 * its token (`mcp.tokens`) rather than a session: they carry no cookie, so
 * the board knows them by the request object itself, which only the endpoint
 * can register (nothing from the network reaches this map). For them the
 * agent is the session's user, and the session guard stands aside; every
 * other guard (permission, read-only, audit) runs as for any request.
 *
 * @module
 */

import type { Context, MiddlewareHandler } from "hono";
import type { SessionEnv } from "../auth/session.ts";
import { type UserEnv, userName } from "../auth/user.ts";
import type { BoardUser } from "../options.ts";

/** The agents' in-process requests of one board. */
export class AgentCalls {
  #agents = new WeakMap<Request, BoardUser>();

  /** Marks `request` as made for `agent`. */
  register(request: Request, agent: BoardUser): void {
    this.#agents.set(request, agent);
  }

  /** Whether the request is one the endpoint made for an agent (the session guard's exception). */
  isAgentCall = (c: Context): boolean => this.#agents.has(c.req.raw);

  /** Names the agent as the request's user, as the session guard names a session's. */
  identify: MiddlewareHandler<SessionEnv & UserEnv> = async (c, next) => {
    const agent = this.#agents.get(c.req.raw);
    if (agent) {
      c.set("user", userName(agent));
      c.set("sessionUser", agent);
    }
    await next();
  };
}
