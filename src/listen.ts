/**
 * `board.listen`: `Deno.serve` with a start line that says what is exposed,
 * and warns when anyone on the network can change jobs.
 *
 * @module
 */

import type { ResolvedOptions } from "./options.ts";

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
}

/** Whether a bound address is reachable from this machine only. */
export function isLoopback(hostname: string): boolean {
  return hostname === "localhost" || hostname === "::1" || /^(::ffff:)?127\./.test(hostname);
}

/**
 * The start line: the URL, then mutations, login and redaction on or off,
 * then `detail`; with a warning when the address is not loopback, nobody has
 * to log in and mutations are on.
 *
 * @example
 * ```ts
 * import { startLine } from "./listen.ts";
 * import { resolveOptions } from "./options.ts";
 *
 * const line = startLine({ hostname: "127.0.0.1", port: 3000 }, resolveOptions(), "memory demo");
 * // queue-board listening on http://127.0.0.1:3000/board (mutations on, login off, redaction off; memory demo)
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
    ? "login on (a copied session cookie never expires: set sessionTtl)"
    : "login on";
  const keys = options.redact.length;
  const exposure = [
    options.readOnly ? "mutations off" : "mutations on",
    login,
    keys > 0 ? `redaction on (${keys} ${keys === 1 ? "key" : "keys"})` : "redaction off",
  ].join(", ");
  const line = `queue-board listening on http://${host}:${addr.port}${path} (${exposure}${
    detail ? `; ${detail}` : ""
  })`;
  if (isLoopback(addr.hostname) || options.auth !== null || options.readOnly) return line;
  return `${line} WARNING: reachable from other machines with no login and mutations on: ` +
    "anyone who can connect can retry, cancel and remove jobs";
}

/** Starts `Deno.serve` for `fetch` and prints the {@link startLine}. */
export function listen(
  fetch: (request: Request) => Response | Promise<Response>,
  options: ResolvedOptions,
  listenOptions: number | ListenOptions = {},
): Deno.HttpServer<Deno.NetAddr> {
  const { port = 3000, hostname, detail } = typeof listenOptions === "number"
    ? { port: listenOptions }
    : listenOptions;
  return Deno.serve({
    port,
    hostname,
    onListen(addr) {
      console.log(startLine(addr, options, detail));
    },
  }, fetch);
}
