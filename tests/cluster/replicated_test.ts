/**
 * The failover tests' precondition, `replicated` (tests/helpers/failover.ts):
 * it says a replica holds every write only once the replica acknowledged
 * them. The replica is stopped (SIGSTOP) around a write, so it cannot have
 * applied it, whatever the machine's load.
 */

import assert from "node:assert/strict";
import { startSentinel } from "../helpers/redis_cluster.ts";
import { redisCommand } from "../helpers/resp_command.ts";
import { acknowledged, replicated, replicationOffset } from "../helpers/failover.ts";

Deno.test({
  name: "replicated: a write is held by a replica only once the replica acknowledged it",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const set = await startSentinel();
    const master = set.master.port;
    try {
      set.replica.pause();
      assert.equal(await redisCommand(master, "SET", "written", "while stopped"), "OK");
      const offset = await replicationOffset(master);
      // What the failover tests asked before: WAIT on a connection that wrote nothing counts
      // every online replica, so it said a replica held the write the stopped one never got.
      assert.equal(await redisCommand(master, "WAIT", "1", "1"), "1");
      assert.equal(await acknowledged(master, offset), false, "the stopped replica acked it");

      set.replica.resume();
      await replicated(master);
      assert.equal(await redisCommand(set.replica.port, "GET", "written"), "while stopped");
    } finally {
      set.replica.resume();
      await set.stop();
    }
  },
});
