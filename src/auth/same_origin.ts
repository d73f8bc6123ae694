/**
 * Refuses requests that change something when they come from a page of
 * another origin (cross-site request forgery).
 *
 * `hono/csrf` makes the call for the bodies a cross-site page can send
 * without a CORS preflight (forms, `text/plain`, no type): it refuses them
 * unless `Sec-Fetch-Site` or `Origin` says they come from the board's own
 * origin or a configured `cors` origin. It lets any other body type through,
 * counting on the preflight; this guard also refuses such a request when it
 * names a foreign `Origin`, so that a host mounting the board behind a loose
 * CORS policy of its own does not open the board to other sites. A request
 * with neither header is not from a browser (curl, scripts) and only meets
 * `hono/csrf`'s rule.
 *
 * The board's own origin is the host the browser asked for (under
 * `trustProxy`, the proxy's `X-Forwarded-Host`), and only when it is one of
 * the allowed hosts: a `Host` the request merely names proves nothing, since
 * under DNS rebinding it is the attacker's.
 *
 * @module
 */

import type { Context, MiddlewareHandler } from "hono";
import { csrf } from "hono/csrf";
import { BoardError } from "../errors.ts";
import { hostAllowed, requestedHost } from "./allowed_hosts.ts";
import { isHttps } from "./session.ts";

/** Options of {@link sameOrigin}. */
export interface SameOriginOptions {
  /** Other origins that may send requests (the board's `cors` origins). */
  origins: readonly string[];
  /** The board's `allowedHosts`; null for any. */
  hosts: readonly string[] | null;
  /**
   * Honour `X-Forwarded-Proto` and `X-Forwarded-Host`: behind a proxy the
   * browser's origin is the proxy's (`https:`, the public name).
   */
  trustProxy: boolean;
}

const SAFE_METHOD = /^(GET|HEAD|OPTIONS)$/;

/**
 * The guard: lets safe methods through, refuses a cross-origin request with
 * a 403 `CROSS_ORIGIN` {@link BoardError} (the board's error handler answers it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Hono } from "hono";
 * import { sameOrigin } from "./same_origin.ts";
 * import type { BoardError } from "../errors.ts";
 *
 * const app = new Hono().use(
 *   "/api/*",
 *   sameOrigin({ origins: [], hosts: ["localhost"], trustProxy: false }),
 * ).post("/api/retry", (c) => c.text("done"));
 * app.onError((error, c) => c.text(error.message, (error as BoardError).status ?? 500));
 * const from = (origin: string) =>
 *   app.request("http://localhost/api/retry", { method: "POST", headers: { origin } });
 * assert.equal((await from("http://localhost")).status, 200);
 * assert.equal((await from("https://evil.example")).status, 403);
 * ```
 */
export function sameOrigin(options: SameOriginOptions): MiddlewareHandler {
  function isAllowedOrigin(origin: string, c: Context): boolean {
    if (options.origins.includes(origin)) return true;
    const host = requestedHost(c, options.trustProxy);
    if (!hostAllowed(host, options.hosts)) return false;
    const scheme = isHttps(c, options.trustProxy) ? "https:" : new URL(c.req.url).protocol;
    return origin === URL.parse(`${scheme}//${host}`)?.origin;
  }
  const forms = csrf({ origin: isAllowedOrigin, secFetchSite: "same-origin" });

  async function passesForms(c: Context): Promise<boolean> {
    let passed = false;
    try {
      await forms(c, () => Promise.resolve(void (passed = true)));
    } catch {
      // hono/csrf throws its own 403; the board answers from its catalogue.
    }
    return passed;
  }

  function refusal(c: Context): BoardError {
    const from = c.req.header("origin") ?? c.req.header("sec-fetch-site");
    if (from === undefined) {
      return new BoardError(
        "CROSS_ORIGIN",
        "Request refused: a form or untyped body without an Origin header may come from another " +
          "site (send JSON with Content-Type: application/json)",
      );
    }
    const allowed = ["the board's own origin", ...options.origins].join(", ");
    return new BoardError(
      "CROSS_ORIGIN",
      `Cross-origin request refused: ${c.req.method} from ${from} (allowed: ${allowed})`,
    );
  }

  return async function sameOriginGuard(c, next) {
    if (SAFE_METHOD.test(c.req.method)) return await next();
    const origin = c.req.header("origin");
    const foreign = origin !== undefined && !isAllowedOrigin(origin, c) &&
      c.req.header("sec-fetch-site") !== "same-origin";
    if (foreign || !await passesForms(c)) throw refusal(c);
    await next();
  };
}
