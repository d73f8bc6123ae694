/**
 * A throwaway Redis holding a benchmark's keyspace: `fillCommands`'s jobs
 * over `tasks` tasks, loaded through `redis-cli --pipe` (a million jobs in
 * well under a minute, where a node-redis pipeline takes several).
 *
 * @module
 */

import { pipeCommands } from "../helpers/redis_pipe.ts";
import { connectClient, startRedis, type TestRedis } from "../helpers/redis_server.ts";
import { fillCommands } from "../helpers/wire_writer.ts";

/** The server, a client on it, and what loading it took. */
export interface FilledRedis {
  redis: TestRedis;
  client: Awaited<ReturnType<typeof connectClient>>;
  keys: number;
  loadMs: number;
  /** Closes the client and stops the server. */
  stop(): Promise<void>;
}

/** Starts a Redis and loads `jobs` jobs over `tasks` tasks into it. */
export async function startFilledRedis(jobs: number, tasks: number): Promise<FilledRedis> {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  const started = performance.now();
  await pipeCommands(redis.port, fillCommands({ jobs, tasks }));
  return {
    redis,
    client,
    keys: await client.dbSize(),
    loadMs: performance.now() - started,
    stop: async () => {
      await client.close();
      await redis.stop();
    },
  };
}

/** One line naming what was loaded: jobs, tasks, keys and the load's seconds. */
export function describeLoad(filled: FilledRedis, jobs: number, tasks: number): string {
  return `${jobs.toLocaleString("en")} jobs over ${tasks.toLocaleString("en")} tasks: ${
    filled.keys.toLocaleString("en")
  } keys (loaded in ${(filled.loadMs / 1000).toFixed(0)} s)`;
}
