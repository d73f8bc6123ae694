/**
 * Requests that arrive while the board connects wait for one connection
 * together: however many there are, the Redis client carries one listener
 * for them (one per request made node's "MaxListenersExceededWarning"
 * print during any outage with more than ten requests in flight).
 */

import assert from "node:assert/strict";
import type { EventEmitter } from "node:events";
import { RedisConnection } from "../../src/source/redis/client.ts";
import { startRedis } from "../helpers/redis_server.ts";

Deno.test("twenty requests waiting for a connection share one wait, and all go on once it is up", async () => {
  const redis = await startRedis();
  // Frozen: the socket connects (the kernel accepts it) but the client's
  // handshake gets no answer, so the connection is open and not yet ready.
  redis.pause();
  // A hang guard, not a wait: the requests must still be waiting when counted.
  const connection = new RedisConnection({ url: redis.url, commandTimeoutMs: 60_000 });
  try {
    // The node-redis client under a one-server topology: where node counts listeners.
    const topology = (connection.topology as unknown as { client: EventEmitter }).client;
    const before = topology.listenerCount("ready");
    const waiting = Array.from({ length: 20 }, () => connection.ready());
    assert.equal(topology.listenerCount("ready"), before + 1);
    redis.resume();
    await Promise.all(waiting);
    assert.equal(topology.listenerCount("ready"), before, "the shared wait is gone once connected");
    assert.equal(await connection.pipelineSettled([["PING"]]).then(([pong]) => pong), "PONG");
  } finally {
    redis.resume();
    await connection.close();
    await redis.stop();
  }
});
