/**
 * The names the board answers to (`allowedHosts`), against DNS rebinding: a
 * page on `http://rebind.attacker.example:3000` whose name the attacker
 * points at 127.0.0.1 is, to the browser, same-origin with a board listening
 * there, so it could read every answer and pass any origin check built from
 * the request's own `Host`. Only the `Host` header shows the difference, so
 * a request naming a host outside the list is refused before any route.
 *
 * An entry is a name (`board.example.com`), a name with a leading dot for it
 * and every subdomain (`.example.com`), an IPv4 address, or an IPv6 address
 * in brackets (`[::1]`); with `:port` it matches that port only, without,
 * any port. Names are compared case-insensitively.
 *
 * @module
 */

import type { Context, MiddlewareHandler } from "hono";
import { BoardError, errorBody } from "../errors.ts";

/** What the board answers to when it listens on loopback and was given no list. */
export const LOOPBACK_HOSTS: readonly string[] = ["localhost", "127.0.0.1", "[::1]"];

const ENTRY = /^(\.?[a-z0-9-]+(\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(:(\d{1,5}))?$/;

/** Whether `entry` is a valid `allowedHosts` entry (see the module's documentation). */
export function isHostEntry(entry: string): boolean {
  const match = ENTRY.exec(entry.toLowerCase());
  return match !== null && (match[4] === undefined || Number(match[4]) <= 65535);
}

/** Splits `name:port`, `[v6]:port`, `name` into the name (lower-case) and the port, if any. */
function splitHost(host: string): { name: string; port: string | null } {
  const match = /^(\[[^\]]*\]|[^:]*)(?::(\d*))?$/.exec(host.toLowerCase());
  if (!match) return { name: host.toLowerCase(), port: null };
  return { name: match[1], port: match[2] ?? null };
}

/**
 * Whether `host` (a `Host` header: name and optional port) matches one of
 * `allowed`; any host when `allowed` is null.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { hostAllowed } from "./allowed_hosts.ts";
 *
 * assert.ok(hostAllowed("Board.Example.com:8443", ["board.example.com"]));
 * assert.ok(hostAllowed("a.example.com", [".example.com"]));
 * assert.ok(!hostAllowed("rebind.attacker.example:3000", ["localhost"]));
 * ```
 */
export function hostAllowed(host: string, allowed: readonly string[] | null): boolean {
  if (allowed === null) return true;
  const { name, port } = splitHost(host);
  return allowed.some((entry) => {
    const wanted = splitHost(entry);
    if (wanted.port !== null && wanted.port !== port) return false;
    return wanted.name.startsWith(".")
      ? name === wanted.name.slice(1) || name.endsWith(wanted.name)
      : name === wanted.name;
  });
}

/**
 * The host the browser sent the request to: the first `X-Forwarded-Host`
 * under `trustProxy` (the proxy's own `Host` may be its upstream's name),
 * else the request's. {@link allowedHosts} has already checked both.
 */
export function requestedHost(c: Context, trustProxy: boolean): string {
  const forwarded = trustProxy ? forwardedHosts(c)[0] : undefined;
  return forwarded ?? new URL(c.req.url).host;
}

function forwardedHosts(c: Context): string[] {
  const header = c.req.header("x-forwarded-host");
  if (header === undefined) return [];
  return header.split(",").map((host) => host.trim());
}

/** Options of {@link allowedHosts}. */
export interface AllowedHostsOptions {
  /** The entries; null answers any host. */
  hosts: readonly string[] | null;
  /**
   * Check `X-Forwarded-Host` too. Every name the request carries must be
   * allowed: a proxy that does not set the header passes on whatever the
   * client put there.
   */
  trustProxy: boolean;
}

/**
 * The guard: answers a request for another host, or with a `Host` that
 * names none (`localhost:99999`), with 403 `HOST_NOT_ALLOWED`, as JSON
 * whichever route it was for.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Hono } from "hono";
 * import { allowedHosts } from "./allowed_hosts.ts";
 *
 * const app = new Hono().use("*", allowedHosts({ hosts: ["board.example.com"], trustProxy: false }))
 *   .get("/", (c) => c.text("ok"));
 * assert.equal((await app.request("http://board.example.com/")).status, 200);
 * assert.equal((await app.request("http://rebound.example/")).status, 403);
 * ```
 */
export function allowedHosts({ hosts, trustProxy }: AllowedHostsOptions): MiddlewareHandler {
  return async function hostGuard(c, next) {
    // Deno.serve puts the Host header into the URL as is: `localhost:99999` makes one that
    // does not parse, and names no host the board could be reached by, listed or not.
    if (!URL.canParse(c.req.url)) return refusal(c, c.req.header("host") ?? "");
    if (hosts !== null) {
      const names = [new URL(c.req.url).host, ...(trustProxy ? forwardedHosts(c) : [])];
      const refused = names.find((name) => !hostAllowed(name, hosts));
      if (refused !== undefined) return refusal(c, refused);
    }
    await next();
  };
}

function refusal(c: Context, host: string): Response {
  // The list itself is not told: a rebinding page reads this answer.
  const { status, body } = errorBody(
    new BoardError(
      "HOST_NOT_ALLOWED",
      `The board does not answer to the host ${JSON.stringify(host)}: if that is its name, ` +
        "add it to allowedHosts (--allowed-host, BOARD_ALLOWED_HOSTS)",
    ),
  );
  return c.json(body, status);
}
