/**
 * The headers of every answer: a CSP that lets only the board's own code run
 * (and its logo and favicon load from where the options say), no framing.
 *
 * @module
 */

import type { MiddlewareHandler } from "hono";
import { type ContentSecurityPolicyOptionHandler, NONCE, secureHeaders } from "hono/secure-headers";
import type { ResolvedOptions } from "../options.ts";
import { apiPathOf } from "./api_stack.ts";

function originOf(url: string | null): string[] {
  if (url === null || !/^https?:\/\//.test(url)) return [];
  return [new URL(url).origin];
}

/** `hono/secure-headers` set for the board of `options`, styles allowed from `styleSrc`. */
function headersWith(
  options: ResolvedOptions,
  styleSrc: (string | ContentSecurityPolicyOptionHandler)[],
): MiddlewareHandler {
  return secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc,
      imgSrc: ["'self'", "data:", ...originOf(options.logo), ...originOf(options.favicon)],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
    xFrameOptions: "DENY",
    referrerPolicy: "same-origin",
    strictTransportSecurity: false,
  });
}

/**
 * The headers for the board of `options`. A page's styles run with the
 * nonce drawn for it (the sign-in page's); the API answers JSON, in which no
 * style runs: its policy is the page's without a nonce, written once, not
 * drawn and written again at each request.
 */
export function securityHeaders(options: ResolvedOptions): MiddlewareHandler {
  const pages = headersWith(options, ["'self'", NONCE]);
  const api = headersWith(options, ["'self'"]);
  const apiPath = `${apiPathOf(options.basePath)}/`;
  return (c, next) => (c.req.path.startsWith(apiPath) ? api : pages)(c, next);
}
