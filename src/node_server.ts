/**
 * The server `board.listen` runs: `node:http` with header and idle timeouts.
 *
 * `Deno.serve` has no way to close a connection that never finishes its
 * headers or sits idle between requests (denoland/deno#3515): 3,000 such
 * connections were all still open after 80 s. Deno's `node:http` honours
 * Node's `headersTimeout` (checked every `connectionsCheckingInterval`,
 * answered with 408) and `keepAliveTimeout`, so the board is served through
 * it, with the `fetch` handler adapted by `@hono/node-server` (`node_listener.ts`).
 *
 * @module
 */

import { createServer, type Server } from "node:http";
import { nodeListener, type ServedFetch } from "./node_listener.ts";

/** The running server: its address, and a way to stop it. */
export interface BoardServer {
  /** Where it listens (port 0 asked for is the port picked). */
  addr: Deno.NetAddr;
  /** Resolves when the server has closed. */
  finished: Promise<void>;
  /**
   * Stops taking connections, closes idle ones, and resolves once the
   * requests in flight have been answered and their connections closed.
   */
  shutdown(): Promise<void>;
}

/** Options of {@link serveWithTimeouts}. */
export interface ServeOptions {
  port: number;
  hostname: string;
  /** Ms a connection has to send complete headers, on every request it carries. */
  headersTimeout: number;
  /** Ms a keep-alive connection may wait for its next request. */
  idleTimeout: number;
}

/** The longest a request may take to arrive, body included (bodies are at most 1 MiB). */
const REQUEST_TIMEOUT_MS = 60_000;

/**
 * Serves `fetch` on `hostname:port`; resolves once listening, rejects when
 * the address cannot be bound.
 *
 * @example
 * ```ts ignore
 * const server = await serveWithTimeouts(board.fetch, {
 *   port: 3000,
 *   hostname: "127.0.0.1",
 *   headersTimeout: 15_000,
 *   idleTimeout: 15_000,
 * });
 * await server.shutdown();
 * ```
 */
export function serveWithTimeouts(
  fetch: ServedFetch,
  { port, hostname, headersTimeout, idleTimeout }: ServeOptions,
): Promise<BoardServer> {
  const server = createServer({
    headersTimeout,
    requestTimeout: Math.max(REQUEST_TIMEOUT_MS, headersTimeout),
    keepAliveTimeout: idleTimeout,
    // Node checks the headers deadline on this beat (default 30 s): the bound is the sum.
    connectionsCheckingInterval: Math.min(1_000, headersTimeout / 4),
  }, nodeListener(fetch));
  const finished = new Promise<void>((resolve) => server.once("close", () => resolve()));
  let closing = false;
  // A connection whose response ends while the server closes would otherwise idle out.
  server.on("request", (_request, response) => {
    response.once("finish", () => {
      if (closing) setTimeout(() => server.closeIdleConnections(), 0);
    });
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, hostname, () => {
      server.off("error", reject);
      resolve({
        addr: addressOf(server),
        finished,
        shutdown() {
          closing = true;
          server.close();
          server.closeIdleConnections();
          return finished;
        },
      });
    });
  });
}

function addressOf(server: Server): Deno.NetAddr {
  const address = server.address();
  if (address === null || typeof address === "string") {
    throw new Error(`queue-board: the server listens on ${address}, not a TCP port`);
  }
  return { transport: "tcp", hostname: address.address, port: address.port };
}
