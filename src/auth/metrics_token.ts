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
  /** Whether a request without the token is refused (the board has no other guard). */
  required: boolean;
  /**
   * Whether a request whose credentials are not the token goes on to the
   * next guard (the auth hook) instead of being refused.
   */
  passOthers: boolean;
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
 * app.use("/metrics", metricsToken({ token, required: false, passOthers: false, serve }));
 * ```
 */
export function metricsToken(
  { token, required, passOthers, serve }: MetricsTokenOptions,
): MiddlewareHandler {
  return async function bearer(c, next) {
    const header = c.req.header("Authorization");
    if (header === undefined) {
      if (required) return unauthorized(c);
      return await next();
    }
    const match = /^Bearer ([\x21-\x7e]+)$/i.exec(header);
    if (match && await timingSafeEqual(match[1], token)) return await serve(c);
    return passOthers ? await next() : unauthorized(c);
  };
}
