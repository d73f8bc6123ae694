/**
 * The client's address, for login throttling: the socket's (Hono's conninfo
 * for `Deno.serve` and for `@hono/node-server`), or, with `trustProxy`, the
 * last address in `X-Forwarded-For`: the one the proxy in front of the board
 * appended. Anything before it was sent by the client and proves nothing.
 * It is written one way whatever way it came (see {@link canonicalAddress}),
 * so one client is one key.
 *
 * @module
 */

import type { Context } from "hono";
import { getConnInfo as denoConnInfo } from "hono/deno";
import { getConnInfo as nodeConnInfo } from "@hono/node-server/conninfo";
import {
  convertIPv4BinaryToString,
  convertIPv4MappedIPv6ToIPv4,
  convertIPv4ToBinary,
  convertIPv6BinaryToString,
  convertIPv6ToBinary,
  isIPv4MappedIPv6,
} from "hono/utils/ipaddr";

/** An IPv6 address in brackets, with an optional port, as `X-Forwarded-For` may write it. */
const BRACKETED = /^\[([^\]]+)\](?::\d+)?$/;
/** An IPv4 address with a port. */
const IPV4_WITH_PORT = /^(\d+\.\d+\.\d+\.\d+):\d+$/;

/** The address as a number and its family, or null when it is no IP address. */
function parsed(text: string): { v4: bigint } | { v6: bigint } | null {
  const bare = BRACKETED.exec(text)?.[1] ?? IPV4_WITH_PORT.exec(text)?.[1] ?? text;
  try {
    if (!bare.includes(":")) return { v4: convertIPv4ToBinary(bare) };
    // The zone (`%eth0`) names the board's own interface, not the client.
    const v6 = convertIPv6ToBinary(bare.replace(/%.*$/, ""));
    return isIPv4MappedIPv6(v6) ? { v4: convertIPv4MappedIPv6ToIPv4(v6) } : { v6 };
  } catch {
    return null;
  }
}

/**
 * An address written one way: an IPv4-mapped IPv6 address (`::ffff:192.0.2.7`,
 * as a dual-stack socket reports IPv4 clients) as its IPv4, IPv6 lowercase and
 * compressed without its zone, a port or brackets dropped; what is no IP
 * address (a proxy's odd header) lowercased as it is.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { canonicalAddress } from "./client_address.ts";
 * assert.equal(canonicalAddress("::FFFF:192.0.2.7"), "192.0.2.7");
 * assert.equal(canonicalAddress("[2001:DB8:0:0:0:0:0:1]:443"), "2001:db8::1");
 * ```
 */
export function canonicalAddress(text: string): string {
  const address = parsed(text.trim());
  if (address === null) return text.trim().toLowerCase().slice(0, 64);
  return "v4" in address
    ? convertIPv4BinaryToString(address.v4)
    : convertIPv6BinaryToString(address.v6);
}

/**
 * The block one client controls: an IPv4 address itself, an IPv6 address's
 * /64 (a host is given a whole /64 and may take any address in it, so
 * counting per address would count nothing).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { addressBlock } from "./client_address.ts";
 * assert.equal(addressBlock("2001:db8:1:2:aaaa::9"), "2001:db8:1:2::/64");
 * assert.equal(addressBlock("192.0.2.7"), "192.0.2.7");
 * ```
 */
export function addressBlock(address: string): string {
  const ip = parsed(address);
  if (ip === null || "v4" in ip) return address;
  return `${convertIPv6BinaryToString((ip.v6 >> 64n) << 64n)}/64`;
}

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
    if (forwarded) return canonicalAddress(forwarded.slice(0, 64));
  }
  const socket = socketAddress(c);
  return socket === null ? null : canonicalAddress(socket);
}
