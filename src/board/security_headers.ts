/**
 * The headers of every answer: a CSP that lets only the board's own code run
 * (and its logo and favicon load from where the options say), no framing.
 *
 * @module
 */

import type { MiddlewareHandler } from "hono";
import { NONCE, secureHeaders } from "hono/secure-headers";
import type { ResolvedOptions } from "../options.ts";

function originOf(url: string | null): string[] {
  if (url === null || !/^https?:\/\//.test(url)) return [];
  return [new URL(url).origin];
}

/** `hono/secure-headers` set for the board of `options`. */
export function securityHeaders(options: ResolvedOptions): MiddlewareHandler {
  return secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", NONCE],
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
