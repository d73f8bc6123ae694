/**
 * The session guard: API requests without a valid session get 401, pages
 * get sent to the login form with a way back.
 *
 * @module
 */

import type { MiddlewareHandler } from "hono";
import {
  needsRenewal,
  readSession,
  type Session,
  type SessionConfig,
  type SessionEnv,
  writeSession,
} from "./session.ts";
import { identityOf, type SessionRevoker } from "./revocations.ts";
import { type UserEnv, userName } from "./user.ts";

/** The exact body of an unauthenticated API request. */
export const UNAUTHORIZED_BODY = { error: "Unauthorized" } as const;

/** Paths (relative to the base path) that need no session. */
function isPublic(path: string): boolean {
  return path === "/login" || path.startsWith("/auth/") || path.startsWith("/assets/");
}

/**
 * Guards every route of the board. `basePath` is stripped from the request
 * path to decide what kind of route it is. A session signed out everywhere
 * (`revoker`) is no session. Sets `sessionExp`, `sessionUser` and
 * `sessionRevoked` for the routes.
 */
export function sessionGuard(
  config: SessionConfig,
  basePath: string,
  revoker: SessionRevoker,
): MiddlewareHandler<SessionEnv & UserEnv> {
  const strip = basePath === "/" ? 0 : basePath.length;
  const loginPath = basePath === "/" ? "/login" : `${basePath}/login`;

  /**
   * Whether the session was signed out everywhere. When the store cannot say,
   * the API and the metrics answer 503 (as they would for their data); a page
   * is the shell, which holds no data and then shows the store as down.
   */
  async function isRevoked(session: Session, machine: boolean): Promise<boolean> {
    try {
      return await revoker.isRevoked(identityOf(session));
    } catch (error) {
      if (machine) throw error;
      return false;
    }
  }

  return async function guard(c, next) {
    const path = c.req.path.slice(strip) || "/";
    if (isPublic(path)) return await next();
    // The API and the metrics answer machines: 401, never a login page.
    const machine = path === "/api" || path.startsWith("/api/") || path === "/metrics";
    const session = await readSession(c, config);
    if (!session || await isRevoked(session, machine)) {
      if (machine) {
        return c.json(UNAUTHORIZED_BODY, 401);
      }
      const url = new URL(c.req.url);
      const back = encodeURIComponent(`${url.pathname}${url.search}`);
      return c.redirect(`${loginPath}?redirect=${back}`, 302);
    }
    const user = userName(session.user);
    c.set("user", user);
    c.set("sessionUser", session.user);
    c.set("sessionRevoked", () => revoker.isRevoked(identityOf(session)));
    c.set(
      "sessionExp",
      needsRenewal(session, config)
        ? await writeSession(c, config, session.user, session)
        : session.exp,
    );
    await next();
  };
}
