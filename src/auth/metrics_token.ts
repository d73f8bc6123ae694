/**
 * The bearer token of `GET {basePath}/metrics`, for scrapers that cannot log
 * in: a request that carries the right token is answered at once, past the
 * session guard and the auth hook; a wrong one is refused; one without goes
 * on to the guards like any API request (or is refused when the board has
 * no login, since the token is then the only guard). Under an auth hook, any
 * other credentials go on to the hook too: the hook may take bearer tokens
 * of its own, and only it knows them.
 *
 * @module
 */

import type { Context, MiddlewareHandler } from "hono";
import { timingSafeEqual } from "hono/utils/buffer";
import { UNAUTHORIZED_BODY } from "./guard.ts";

/** Options of {@link metricsToken}. */
export interface MetricsTokenOptions {
  /** The token scrapers send as `Authorization: Bearer <token>`. */
  token: string;
  /** The board's other guard: where a request without the token goes (see the module doc). */
  guard: "none" | "session" | "hook";
  /** Answers an admitted request. */
  serve: (c: Context) => Promise<Response>;
}

function unauthorized(c: Context): Response {
  c.header("WWW-Authenticate", 'Bearer realm="queue-board metrics"');
  return c.json(UNAUTHORIZED_BODY, 401);
}

/**
 * Admits scrapers by their bearer token, compared in constant time.
 *
 * @example
 * ```ts ignore
 * app.use("/metrics", metricsToken({ token, guard: "session", serve }));
 * ```
 */
export function metricsToken({ token, guard, serve }: MetricsTokenOptions): MiddlewareHandler {
  return async function bearer(c, next) {
    const header = c.req.header("Authorization");
    const match = header === undefined ? null : /^Bearer ([\x21-\x7e]+)$/i.exec(header);
    if (match && await timingSafeEqual(match[1], token)) return await serve(c);
    if (guard === "hook" || (guard === "session" && header === undefined)) return await next();
    return unauthorized(c);
  };
}
