/**
 * The contract suites that hold for a source over a taskora App, run on
 * both: the App on taskora's memory adapter (its public API) and on its
 * Redis adapter (the Redis source on the App's connection), each as
 * `createBoard(app)` makes it.
 */

import { createAppSource } from "../../src/taskora/mod.ts";
import { createTaskora, memoryAdapter, redisAdapter } from "../taskora/harness.ts";
import { startRedis } from "../helpers/redis_server.ts";
import { KNOWN_SCHEDULE, KNOWN_TASK, refusalContract } from "./refusal_contract.ts";

const redis = await startRedis();

/** An App on `adapter` registering the contract's task and schedule, and its source. */
function openApp(adapter: () => unknown) {
  return () => {
    const app = createTaskora({ adapter: adapter() });
    app.task(KNOWN_TASK, { handler: () => null });
    app.schedule(KNOWN_SCHEDULE, { task: KNOWN_TASK, cron: "0 3 * * *" });
    const source = createAppSource(app);
    return Promise.resolve({
      source,
      close: async () => {
        await source.close();
        await app.close();
      },
    });
  };
}

refusalContract("App on the memory adapter", openApp(() => memoryAdapter()));
refusalContract("App on the Redis adapter", openApp(() => redisAdapter(redis.url)));

// Runs even when --filter skips every test, so no server outlives the run.
Deno.test.afterAll(async () => {
  await redis.stop();
});
