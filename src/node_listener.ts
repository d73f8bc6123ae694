/**
 * A fetch handler as a `node:http` request listener (`board.handler`, and the
 * server `board.listen` runs), handing the board a `Request` of the runtime.
 *
 * `@hono/node-server` hands the handler a lightweight stand-in: an object
 * whose prototype is a `Request`, but which the runtime's own `Request`
 * constructor (Deno's, undici's) refuses ("Argument 1 is not of type
 * Request"), as it checks the object, not its prototype. Only replacing the
 * globals (its `overrideGlobalObjects`, which would change the host's
 * `Request` for its whole process) makes it acceptable. `hono/body-limit`
 * rebuilds the request around a body it had to count, one without
 * `Content-Length` (a chunked `POST`, an `OPTIONS` or `DELETE` with no
 * body), so every such request answered 500.
 *
 * @module
 */

import { getRequestListener } from "@hono/node-server";

/** A fetch handler that takes the server's connection env (Hono's second argument) too. */
export type ServedFetch = (request: Request, env?: unknown) => Response | Promise<Response>;

/** A Node.js `(req, res)` request listener. */
// deno-lint-ignore no-explicit-any
export type NodeHandler = (req: any, res: any) => Promise<void>;

/**
 * A runtime `Request` with what the stand-in reads from node:http: method,
 * URL, headers, the body as a stream, and the signal that aborts when the
 * client goes away.
 */
function runtimeRequest(request: Request): Request {
  // node-server serves TRACE, which fetch cannot construct, as a GET saying TRACE: no body to count.
  if (request.method === "TRACE") return request;
  // Node's fetch (undici) refuses a stream body unless it says it streams one way.
  const init: RequestInit & { duplex: "half" } = {
    method: request.method,
    headers: request.headers,
    body: request.body,
    signal: request.signal,
    duplex: "half",
  };
  return new Request(request.url, init);
}

/**
 * `fetch` as a node:http listener; the connection env (`{ incoming, outgoing }`)
 * goes on, so Hono's conninfo reads the client's address.
 *
 * @example
 * ```ts ignore
 * // Not run: it listens on a port.
 * import { createServer } from "node:http";
 * createServer(nodeListener(board.fetch)).listen(3000);
 * ```
 */
export function nodeListener(fetch: ServedFetch): NodeHandler {
  // The host's own Request/Response stay untouched (the default would replace the globals).
  return getRequestListener(
    (request, env) => fetch(runtimeRequest(request), env),
    { overrideGlobalObjects: false },
  );
}
