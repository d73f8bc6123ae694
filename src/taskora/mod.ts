/**
 * `createBoard(app)`: the board for a taskora App. With taskora's Redis
 * adapter (ioredis) the board reads the App's Redis through the App's own
 * connection and prefix; with any other adapter (the memory adapter) it
 * works through the App's public API.
 *
 * @module
 */

import type { TaskSource } from "../source/types.ts";
import { checkedSource } from "../source/checked.ts";
import type { TaskoraAppLike } from "./app.ts";
import { createAppApiSource } from "./api_source.ts";
import { isIoredis } from "./ioredis_client.ts";
import { AppRedisSource } from "./redis_source.ts";

export { isTaskoraApp, type TaskoraAppLike } from "./app.ts";

/** What taskora's RedisBackend holds (its fields are private in TypeScript only). */
interface RedisBackendLike {
  driver?: { raw?: unknown };
  prefix?: string;
}

/**
 * The source for an App. Throws a `TypeError` for an App on a Redis
 * Cluster client, which the board does not read yet.
 */
export function createAppSource(app: TaskoraAppLike): TaskSource {
  const backend = app.adapter as RedisBackendLike;
  const redis = backend.driver?.raw;
  if (isIoredis(redis)) {
    if (redis.isCluster === true) {
      throw new TypeError(
        "queue-board: this taskora App's Redis adapter uses a Redis Cluster client, which the " +
          "board cannot reuse yet; pass createBoard a redis:// URL of one node or a TaskSource",
      );
    }
    return checkedSource(new AppRedisSource(app, redis, backend.prefix));
  }
  return checkedSource(createAppApiSource(app));
}
