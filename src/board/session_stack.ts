/**
 * The layers of session login on the board's root: past them, every request
 * but the sign-in page, its form and the public assets carries a session.
 * They come after the guards that must answer first (CORS preflights, the
 * same-origin check, the metrics token, the MCP endpoint).
 *
 * @module
 */

import { except } from "hono/combine";
import { sessionGuard } from "../auth/guard.ts";
import { createLoginThrottle } from "../auth/login_throttle.ts";
import { loginRoutes, recordFailedLogin } from "../auth/routes.ts";
import { noStore } from "../no_store.ts";
import type { BoardServices } from "./services.ts";
import type { Layer } from "./stack.ts";

/** Session login's layers; none with an auth hook or no auth. */
export function sessionLayers(services: BoardServices): Layer[] {
  const { login, options, metrics, audit, mcpCalls } = services;
  if (!login) return [];
  const { auth, session, revoker } = login;
  const assetsPath = options.basePath === "/" ? "/assets/" : `${options.basePath}/assets/`;
  return [
    // Everything the session guards (the UI, the metrics) but the public, immutable assets.
    {
      name: "no-store (signed in)",
      use: noStore({ except: (c) => c.req.path.startsWith(assetsPath) }),
    },
    // An agent signed in by its token (`mcp.tokens`) is the session's user of the API
    // requests the MCP endpoint makes for it (`mcpCalls.identify`); nothing else passes
    // without a session.
    {
      name: "session guard",
      use: except(mcpCalls.isAgentCall, sessionGuard(session, options.basePath, revoker)),
    },
    {
      name: "login routes",
      at: "/",
      mount: loginRoutes({
        session,
        authenticate: auth.authenticate,
        basePath: options.basePath,
        title: options.title,
        logo: options.logo,
        throttle: auth.loginThrottle && createLoginThrottle(auth.loginThrottle, session.now),
        onFailedLogin: (failure) => {
          metrics?.countLoginFailure(failure.reason);
          recordFailedLogin(audit, failure, session.now());
        },
        revoker,
      }),
    },
  ];
}
