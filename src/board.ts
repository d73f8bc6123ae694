/**
 * `createBoard`: resolves the options and the source, starts the board's
 * services (`board/services.ts`), and composes its apps from named stacks of
 * layers (`board/*_stack.ts`) under the base path.
 *
 * @module
 */

import type { Hono } from "hono";
import { createApi } from "./api/mod.ts";
import { apiStack } from "./board/api_stack.ts";
import { metricsStack } from "./board/metrics_stack.ts";
import { resolveSource } from "./board/resolve_source.ts";
import { rootStack } from "./board/root_stack.ts";
import { startServices } from "./board/services.ts";
import { composeApp, serveStack } from "./board/stack.ts";
import { type BoardServer, listen, type ListenOptions } from "./listen.ts";
import { type NodeHandler, nodeListener } from "./node_listener.ts";
import { type BoardOptions, resolveOptions } from "./options.ts";
import type { TaskSource } from "./source/types.ts";
import { storeFor } from "./store/pairing.ts";
import type { TaskoraApp } from "./taskora/app.ts";
import { systemTimers, type Timers } from "./timers.ts";

export type { NodeHandler };

/**
 * What {@link createBoard} returns: `app`, the Hono app with routes relative to
 * the base path (mount it with `host.route(basePath, board.app)`), and the
 * handlers below.
 */
export interface Board {
  /**
   * The Hono app with routes relative to the base path: mount it with
   * `host.route(basePath, board.app)`.
   *
   * @ignore Hono's own types are documented by Hono (npm:hono).
   */
  app: Hono;
  /**
   * A web-standard handler serving the board under its base path
   * (`Deno.serve(board.fetch)`). `info`, the connection `Deno.serve` hands
   * it, gives login throttling the client's address.
   */
  fetch: (request: Request, info?: Deno.ServeHandlerInfo) => Response | Promise<Response>;
  /** A Node.js request listener (`http.createServer(board.handler)`). */
  handler: NodeHandler;
  /**
   * Starts a server and prints one line saying what is exposed: the URL,
   * mutations, login and redaction on or off, with a warning when the board is
   * reachable from other machines with no login and mutations on, or answers
   * any `Host`. Resolves once listening.
   *
   * Takes a port (`listen(3000)`) or {@link ListenOptions}
   * (`listen({ port: 3000, hostname: "127.0.0.1" })`). The hostname defaults
   * to every interface (`0.0.0.0`). Connections that do not finish their
   * headers, or sit idle, are closed after 15 s (`headersTimeout`,
   * `idleTimeout`), which `Deno.serve` cannot do.
   */
  listen: (options?: number | ListenOptions) => Promise<BoardServer>;
  /** Releases what the board opened itself (the Redis connection when given a URL). */
  close: () => Promise<void>;
}

/**
 * Creates the board for a task system.
 *
 * @param source the taskora App (what `createTaskora()` returns: the board then
 *   reuses its Redis connection and prefix, and knows each task's version,
 *   `since` and configuration), a Redis URL that taskora writes to, or a
 *   {@link TaskSource} (e.g. `createMemorySource()`)
 * @param options see {@link BoardOptions}; a bad option throws naming it
 *
 * @example Standalone on Deno
 * ```ts ignore
 * // Not run as a test: it needs a Redis and listens on a port.
 * import { createBoard } from "@x/queue-board";
 * const board = createBoard("redis://127.0.0.1:6379", { readOnly: true });
 * board.listen({ port: 3000, hostname: "127.0.0.1" });
 * // queue-board listening on http://127.0.0.1:3000/board (mutations off, login off, redaction off)
 * ```
 *
 * @example A bad option throws when the board is created, naming it
 * ```ts
 * import assert from "node:assert/strict";
 * import { BoardOptionsError, createBoard, createMemorySource } from "@x/queue-board";
 *
 * assert.throws(
 *   () => createBoard(createMemorySource(), { refreshInterval: 10 }),
 *   (error) => error instanceof BoardOptionsError && /refreshInterval/.test(error.message),
 * );
 * ```
 */
export function createBoard(
  source: TaskoraApp | TaskSource | string,
  options: BoardOptions = {},
): Board {
  return createBoardOn(systemTimers, source, options);
}

/**
 * {@link createBoard} whose timers are `timers`: tests pass fake ones and move
 * them instead of waiting. Not part of the package's API.
 *
 * A table of contents: resolve what was given, start the services, compose
 * each app from its stack (the order of its layers is data, pinned by
 * `tests/unit/board_stacks_test.ts`), mount the root under the base path.
 */
export function createBoardOn(
  timers: Timers,
  source: TaskoraApp | TaskSource | string,
  options: BoardOptions = {},
): Board {
  // Resolve: a bad option or source throws here, before anything starts.
  const resolved = resolveOptions(options);
  const { source: taskSource, owned } = resolveSource(source, () => timers.now(), resolved.leaseMs);

  const store = storeFor(taskSource, resolved.store, () => timers.now());

  // Services: leadership, the event hub, audit, sessions, samplers, bulk, scans, alerts, metrics.
  const services = startServices(taskSource, store, resolved, timers);

  // Stacks: the API's and the scrape's, then the root's, which mounts them.
  const routes = createApi(services);
  const { app, served } = serveStack(
    rootStack(services, {
      routes,
      api: composeApp(apiStack(services, routes)),
      metrics: services.metrics && composeApp(metricsStack(resolved, services.metrics)),
      fetch: (request, env) => fetch(request, env),
    }),
    // Mount: under the base path.
    resolved.basePath,
  );

  // The connection goes on as Hono's env: the socket address for login throttling
  // (Deno's ServeHandlerInfo, or @hono/node-server's bindings).
  const fetch = (request: Request, info?: unknown) => served.fetch(request, info);

  return {
    app,
    fetch,
    handler: nodeListener(fetch),
    listen: (listenOptions) => listen(fetch, resolved, listenOptions),
    async close() {
      await services.close();
      if (owned) await taskSource.close();
    },
  };
}
