/**
 * Who is asking: the session's user or the auth hook's, as one name for the
 * audit trail, set on the request by the guard that knows it.
 *
 * @module
 */

import type { Context } from "hono";
import type { BoardUser } from "../options.ts";
import type { SessionEnv } from "./session.ts";

/**
 * What the guards hand the routes after them: `user`, the name of who is
 * asking; `identity`, the auth hook's user (or `identify`'s), for the
 * permission check; for the audit trail, whether the auth hook turned the request
 * away, and whether the audit middleware recorded it.
 */
export interface UserEnv {
  Variables: {
    user?: string;
    identity?: BoardUser;
    refusedByHook?: boolean;
    audited?: boolean;
    /** `mcp` for a tool call of `{basePath}/mcp` (see `src/mcp/mcp_calls.ts`). */
    via?: "mcp";
  };
}

/** The name recorded when no login names anyone. */
export const ANONYMOUS = "anonymous";

/** Fields a user object is named by, in order. */
const NAME_FIELDS = ["name", "username", "email", "id", "user"];

/** A user's name: its first non-empty `name`, `username`, `email`, `id` or `user`, cut to 200 characters. */
export function userName(user: BoardUser | null | undefined): string {
  for (const field of NAME_FIELDS) {
    const value = user?.[field];
    if ((typeof value === "string" && value !== "") || typeof value === "number") {
      return String(value).slice(0, 200);
    }
  }
  // Signed in, but by an object with no name field: still not anonymous.
  return user ? "unnamed user" : ANONYMOUS;
}

/**
 * Who asks, for the permission check: the session's user (what
 * `authenticate` returned), or the auth hook's (`identify`'s); null when no
 * login names anyone.
 */
export function actingUser(c: Context<SessionEnv & UserEnv>): BoardUser | null {
  return c.get("sessionUser") ?? c.get("identity") ?? null;
}
