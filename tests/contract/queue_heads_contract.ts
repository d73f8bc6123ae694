/**
 * The TaskSource contract for `getQueueHeads`: the job active longest and
 * the delayed job due first, read from the same keyspace by every source.
 */

import assert from "node:assert/strict";
import type { Fixture as KeyspaceDump } from "../helpers/fixture.ts";
import { recentFixture, type Seed } from "./source_contract.ts";

const T = 1795345700000;

/** Two active jobs (the list's head is the one claimed last) and a delayed and a retrying one. */
function withBusyBilling(dump: KeyspaceDump): KeyspaceDump {
  const base = "taskora:{billing}";
  const job = (state: string, fields: Record<string, string>) => ({
    type: "hash" as const,
    pttl: -1,
    value: { state, _v: "1", attempt: "1", maxAttempts: "1", data: "{}", ts: String(T), ...fields },
  });
  return {
    ...dump,
    keys: {
      ...dump.keys,
      [`${base}:active`]: { type: "list", pttl: -1, value: ["a-new", "a-old"] },
      [`${base}:a-new`]: job("active", { processedOn: String(T + 500) }),
      [`${base}:a-old`]: job("active", { processedOn: String(T + 100) }),
      [`${base}:delayed`]: {
        type: "zset",
        pttl: -1,
        value: [{ value: "d-later", score: T + 9000 }, { value: "r-first", score: T + 2000 }],
      },
      [`${base}:d-later`]: job("delayed", {}),
      [`${base}:r-first`]: job("retrying", { attempt: "2", maxAttempts: "3" }),
    },
  };
}

/** Registers the queue-heads contract for one source. */
export function queueHeadsContract(name: string, seed: Seed): void {
  Deno.test(`${name}: reads the job active longest and the one due first, per task`, async () => {
    const harness = await seed(withBusyBilling(recentFixture().dump));
    try {
      const heads = await harness.source.getQueueHeads([
        "billing",
        "transcode",
        "resize-image",
        "sum",
        "no-such-task",
      ]);
      assert.deepEqual(heads.get("billing"), {
        oldestActive: { id: "a-old", since: T + 100 },
        nextDue: { id: "r-first", at: T + 2000 },
      });
      assert.deepEqual(heads.get("transcode"), {
        oldestActive: { id: "d8e1df37-39dd-4863-9508-f7c9bd517880", since: 1795345687928 },
        nextDue: null,
      });
      assert.deepEqual(heads.get("resize-image"), {
        oldestActive: null,
        nextDue: { id: "29edcd55-6a5a-4d7f-ae0c-3919ab99f8e9", at: 1795349287498 },
      });
      const none = { oldestActive: null, nextDue: null };
      assert.deepEqual(heads.get("sum"), none);
      assert.deepEqual(heads.get("no-such-task"), none);
    } finally {
      await harness.close();
    }
  });
}
