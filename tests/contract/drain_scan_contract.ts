/**
 * The TaskSource contract for a queue's drain rate (`readStreams` of `drain`): the jobs
 * that left the queue and when the workers started, read from the task's
 * event stream down to a time, at most a depth of entries, alike by every
 * source from one keyspace.
 */

import assert from "node:assert/strict";
import { readFixture } from "../helpers/fixture.ts";
import type { Seed } from "./source_contract.ts";
import { streamOf } from "./workers_contract.ts";

/** Registers the drain scan contract tests for one source. */
export function drainScanContract(name: string, seed: Seed): void {
  const dump = readFixture();

  Deno.test(`${name}: readStreams of drain counts the finished entries since a time and when the workers started`, async () => {
    const { source, close } = await seed(dump);
    const drain = (task: string, since: number, depth: number) =>
      source.readStreams!({ kind: "drain", task, since, depth });
    try {
      // notify's stream: waiting, active, completed; slow's: waiting, active.
      const [waiting, active, completed] = streamOf(dump, "notify");
      assert.deepEqual(await drain("notify", 0, 100), {
        scanned: 3,
        oldestAt: waiting.at,
        finished: 1,
        startedAt: active.at,
      });
      // From the completion on, the workers were running before: no start is read.
      assert.deepEqual(await drain("notify", completed.at, 100), {
        scanned: 1,
        oldestAt: completed.at,
        finished: 1,
        startedAt: null,
      });
      // At most the depth asked, newest first.
      assert.deepEqual(await drain("notify", 0, 2), {
        scanned: 2,
        oldestAt: active.at,
        finished: 1,
        startedAt: active.at,
      });
      const slow = streamOf(dump, "slow");
      assert.deepEqual(await drain("slow", 0, 100), {
        scanned: 2,
        oldestAt: slow[0].at,
        finished: 0,
        startedAt: slow[1].at,
      });
      assert.deepEqual(await drain("no-such-task", 0, 100), {
        scanned: 0,
        oldestAt: null,
        finished: 0,
        startedAt: null,
      });
    } finally {
      await close();
    }
  });
}
