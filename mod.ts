/**
 * queue-board: the admin dashboard for the taskora task queue.
 *
 * One call gives a single-page UI, a REST API under `{basePath}/api` and the
 * handlers to serve them from Deno, a Hono app, Node.js or Deno Deploy.
 *
 * @example Serve the board for a Redis that taskora writes to
 * ```ts ignore
 * // Not run as a test: it needs a Redis and listens on a port.
 * import { createBoard } from "@x/queue-board";
 *
 * const board = createBoard("redis://127.0.0.1:6379", { title: "Production queues" });
 * Deno.serve({ port: 3000 }, board.fetch); // http://localhost:3000/board
 * ```
 *
 * @example Mount it in a Hono app
 * ```ts
 * import assert from "node:assert/strict";
 * import { Hono } from "hono";
 * import { createBoard, createMemorySource } from "@x/queue-board";
 *
 * const board = createBoard(createMemorySource(), { basePath: "/admin/queues" });
 * const host = new Hono().route("/admin/queues", board.app); // then Deno.serve(host.fetch)
 *
 * const config = await host.request("/admin/queues/api/config");
 * assert.equal(config.status, 200);
 * assert.equal((await config.json()).basePath, "/admin/queues");
 * await board.close();
 * ```
 *
 * @example Alert on queue latency: `health.maxWaitMs` and `GET /board/metrics` for Prometheus
 * ```ts
 * import assert from "node:assert/strict";
 * import { createBoard, createMemorySource } from "@x/queue-board";
 *
 * const token = "scraper-token-0123456789"; // e.g. Deno.env.get("METRICS_TOKEN")
 * const board = createBoard(createMemorySource(), {
 *   // A task whose oldest waiting job waited over 2 min is a warning (default 10 min).
 *   health: { maxWaitMs: 120_000 },
 *   // Scrapers send `Authorization: Bearer <token>`; signed-in users need none.
 *   metrics: { token },
 * });
 *
 * const scrape = await board.fetch(
 *   new Request("http://localhost/board/metrics", { headers: { Authorization: `Bearer ${token}` } }),
 * );
 * assert.equal(scrape.status, 200);
 * assert.match(await scrape.text(), /^# TYPE taskora_jobs gauge$/m);
 * assert.equal((await board.fetch(new Request("http://localhost/board/metrics"))).status, 401);
 * await board.close();
 * ```
 *
 * The port a custom source implements, and the values it exchanges, are in
 * the `./source` entry (`@x/queue-board/source`).
 *
 * @module
 */

import {
  createMemorySource as openMemorySource,
  type MemorySourceOptions,
} from "./src/source/memory/mod.ts";
import {
  createRedisSource as openRedisSource,
  type RedisSourceOptions,
} from "./src/source/redis/mod.ts";
import type { TaskSource } from "./src/source/types.ts";

export { type Board, createBoard, type NodeHandler } from "./src/board.ts";
export type { BoardServer, ListenOptions } from "./src/listen.ts";
export type { TaskoraApp } from "./src/taskora/app.ts";
export type {
  AuthHook,
  BoardOptions,
  BoardUser,
  Formatters,
  LoginThrottleOptions,
  McpOptions,
  SessionAuthOptions,
} from "./src/options.ts";
export { BoardOptionsError } from "./src/options.ts";
export { type Can, presetCan, type Role, ROLES } from "./src/auth/permissions.ts";
export { type Action, ACTIONS } from "./src/contract/actions.ts";
export { BoardError, type ErrorCode } from "./src/errors.ts";
export type { RedisSourceOptions } from "./src/source/redis/mod.ts";
export type { MemorySourceOptions } from "./src/source/memory/mod.ts";

/**
 * The source for a Redis that taskora writes to (wire format 6). Tasks are
 * discovered from the keyspace; a keyspace in a format the board does not
 * understand is refused with {@link IncompatibleStoreError}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createBoard, createRedisSource } from "@x/queue-board";
 * const source = createRedisSource({ url: "redis://127.0.0.1:6379", prefix: "prod" });
 * const board = createBoard(source);
 * assert.equal(typeof board.fetch, "function"); // serve it: Deno.serve(board.fetch)
 * await board.close();
 * await source.close();
 * ```
 */
export function createRedisSource(options: RedisSourceOptions): TaskSource {
  return openRedisSource(options);
}

/**
 * The in-process source: empty, seeded from a keyspace dump, or driven by a
 * workload simulator that behaves like a small taskora deployment (the demo).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createBoard, createMemorySource } from "@x/queue-board";
 * const demo = createBoard(createMemorySource({ simulate: true }));
 *
 * const overview = await demo.fetch(new Request("http://localhost/board/api/overview"));
 * assert.equal(overview.status, 200);
 * assert.ok((await overview.json()).tasks.length > 0); // the simulated deployment's tasks
 * await demo.close();
 * ```
 */
export function createMemorySource(options?: MemorySourceOptions): TaskSource {
  return openMemorySource(options);
}
