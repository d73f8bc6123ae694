/**
 * The client's address, for login throttling: the socket's (Hono's conninfo
 * for `Deno.serve` and for `@hono/node-server`), or, with `trustProxy`, the
 * last address in `X-Forwarded-For`: the one the proxy in front of the board
 * appended. Anything before it was sent by the client and proves nothing.
 *
 * @module
 */

import type { Context } from "hono";
import { getConnInfo as denoConnInfo } from "hono/deno";
import { getConnInfo as nodeConnInfo } from "@hono/node-server/conninfo";

/** The socket's address, or null when the runtime did not hand it over (a host's own router). */
function socketAddress(c: Context): string | null {
  for (const connInfo of [denoConnInfo, nodeConnInfo]) {
    try {
      const address = connInfo(c).remote.address;
      if (typeof address === "string" && address !== "") return address;
    } catch {
      // Not this runtime's bindings.
    }
  }
  return null;
}

/**
 * The client's address, or null when unknown.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Hono } from "hono";
 * import { clientAddress } from "./client_address.ts";
 *
 * const app = new Hono().get("/", (c) => c.text(clientAddress(c, true) ?? "unknown"));
 * const response = await app.request("/", { headers: { "x-forwarded-for": "1.2.3.4, 10.0.0.9" } });
 * assert.equal(await response.text(), "10.0.0.9");
 * ```
 */
export function clientAddress(c: Context, trustProxy: boolean): string | null {
  if (trustProxy) {
    const forwarded = c.req.header("x-forwarded-for")?.split(",").at(-1)?.trim();
    if (forwarded) return forwarded.slice(0, 64);
  }
  return socketAddress(c);
}
