/**
 * `board.listen`: a server that closes connections which never finish their
 * headers or sit idle, with a start line that says what is exposed and warns
 * when anyone on the network can change jobs or any web page can reach the
 * board through DNS rebinding.
 *
 * @module
 */

import { Hono } from "hono";
import { allowedHosts, LOOPBACK_HOSTS } from "./auth/allowed_hosts.ts";
import type { ServedFetch } from "./node_listener.ts";
import { type BoardServer, serveWithTimeouts } from "./node_server.ts";
import { mustShowing } from "./config_fields.ts";
import { BoardOptionsError, type ResolvedOptions } from "./options.ts";

export type { BoardServer };

/** The default of `headersTimeout` and `idleTimeout`, in ms. */
export const CONNECTION_TIMEOUT_MS = 15_000;

/** Options of `board.listen`. */
export interface ListenOptions {
  /** Port to listen on (default 3000; 0 picks a free one). */
  port?: number;
  /**
   * Interface to listen on (default `0.0.0.0`, every interface, as
   * `Deno.serve`). `127.0.0.1` keeps the board on this machine.
   */
  hostname?: string;
  /** Said at the end of the start line, e.g. where the data comes from. */
  detail?: string;
  /**
   * Ms a connection has to send a request's complete headers before it is
   * answered 408 and closed (default 15,000; 100 to 600,000).
   */
  headersTimeout?: number;
  /**
   * Ms a keep-alive connection may wait for its next request before it is
   * closed (default 15,000; 100 to 600,000).
   */
  idleTimeout?: number;
}

function timeout(option: "headersTimeout" | "idleTimeout", value: unknown): number {
  const ms = value ?? CONNECTION_TIMEOUT_MS;
  if (typeof ms !== "number" || !Number.isInteger(ms) || ms < 100 || ms > 600_000) {
    throw new BoardOptionsError(
      `listen.${option}`,
      mustShowing("a whole number of milliseconds from 100 to 600000")({ input: ms }),
    );
  }
  return ms;
}

/** Whether a bound address is reachable from this machine only. */
export function isLoopback(hostname: string): boolean {
  return hostname === "localhost" || hostname === "::1" || /^(::ffff:)?127\./.test(hostname);
}

/** Whether a bound address is every interface (`0.0.0.0`, `::`). */
function isWildcard(hostname: string): boolean {
  return hostname === "0.0.0.0" || hostname === "::";
}

/**
 * The hosts a board given no `allowedHosts` answers to when it listens on
 * `hostname`: the loopback names and `hostname` itself; null (any) on every
 * interface, where the names it is reached by cannot be known.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { listenHosts } from "./listen.ts";
 *
 * assert.deepEqual(listenHosts("10.0.0.5"), ["localhost", "127.0.0.1", "[::1]", "10.0.0.5"]);
 * assert.equal(listenHosts("0.0.0.0"), null);
 * ```
 */
export function listenHosts(hostname: string): string[] | null {
  if (isWildcard(hostname)) return null;
  const own = hostname.includes(":") ? `[${hostname}]` : hostname.toLowerCase();
  return LOOPBACK_HOSTS.includes(own) ? [...LOOPBACK_HOSTS] : [...LOOPBACK_HOSTS, own];
}

/**
 * The start line: the URL, then mutations, login and redaction on or off,
 * the MCP endpoint when it is off or its tools act, then `detail`; with a warning when the address is not loopback, nobody has
 * to log in and mutations are on, and one when any `Host` is answered on
 * every interface (no `allowedHosts`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { startLine } from "./listen.ts";
 * import { resolveOptions } from "./options.ts";
 *
 * const line = startLine({ hostname: "127.0.0.1", port: 3000 }, resolveOptions(), "memory demo");
 * assert.match(line, /^queue-board listening on http:\/\/127\.0\.0\.1:3000\/board /);
 * ```
 */
export function startLine(
  addr: { hostname: string; port: number },
  options: ResolvedOptions,
  detail?: string,
): string {
  const host = addr.hostname.includes(":") ? `[${addr.hostname}]` : addr.hostname;
  const path = options.basePath === "/" ? "/" : options.basePath;
  const login = options.auth === null
    ? "login off"
    : typeof options.auth === "function"
    ? "auth hook on"
    : options.auth.sessionTtlMs === null && options.auth.maxSessionAgeMs === null
    ? "login on (a copied session cookie never expires: set sessionTtl, or --session-ttl on the CLI)"
    : "login on";
  const keys = options.redact.length;
  const exposure = [
    options.readOnly ? "mutations off" : "mutations on",
    login,
    keys > 0 ? `redaction on (${keys} ${keys === 1 ? "key" : "keys"})` : "redaction off",
    // Named only when not the default (reading tools): agents that act are exposure too.
    ...(options.mcp === null ? ["MCP off"] : options.mcp.actions ? ["MCP actions on"] : []),
  ].join(", ");
  const line = `queue-board listening on http://${host}:${addr.port}${path} (${exposure}${
    detail ? `; ${detail}` : ""
  })`;
  const warnings = [];
  if (!isLoopback(addr.hostname) && options.auth === null && !options.readOnly) {
    warnings.push(
      "WARNING: reachable from other machines with no login and mutations on: " +
        "anyone who can connect can retry, cancel and remove jobs",
    );
  }
  if ((options.allowedHosts ?? listenHosts(addr.hostname)) === null) {
    warnings.push(
      "WARNING: any Host is answered, so a web page can reach the board through DNS " +
        "rebinding: set allowedHosts (--allowed-host) to the names it is reached by",
    );
  }
  return [line, ...warnings].join(" ");
}

/**
 * `fetch` behind the host guard, for a board whose own guard answers any host
 * because it was given no list: it learns the names only here, from where it listens.
 */
function hostsOnly(
  fetch: ServedFetch,
  hosts: readonly string[],
  trustProxy: boolean,
): ServedFetch {
  // The server's env (node:http's socket) goes on: login throttling reads the client's address.
  const front = new Hono()
    .use("*", allowedHosts({ hosts, trustProxy }))
    .all("*", (c) => fetch(c.req.raw, c.env));
  return (request, env) => front.fetch(request, env);
}

/**
 * Serves `fetch`, prints the {@link startLine}, and resolves once listening.
 * Rejects with a {@link BoardOptionsError} for a bad timeout, or with the
 * system's error when the address cannot be bound.
 */
export async function listen(
  fetch: ServedFetch,
  options: ResolvedOptions,
  listenOptions: number | ListenOptions = {},
): Promise<BoardServer> {
  const { port = 3000, hostname = "0.0.0.0", detail, ...timeouts } =
    typeof listenOptions === "number" ? { port: listenOptions } : listenOptions;
  const headersTimeout = timeout("headersTimeout", timeouts.headersTimeout);
  const idleTimeout = timeout("idleTimeout", timeouts.idleTimeout);
  const hosts = options.allowedHosts === null ? listenHosts(hostname) : null;
  const served = hosts === null ? fetch : hostsOnly(fetch, hosts, options.trustProxy);
  const server = await serveWithTimeouts(served, { port, hostname, headersTimeout, idleTimeout });
  console.log(startLine(server.addr, options, detail));
  return server;
}
