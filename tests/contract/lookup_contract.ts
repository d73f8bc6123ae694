/**
 * The TaskSource contract for the lookups behind health and search:
 * `getQueueHeads` (the job active longest, the delayed job due first) and
 * `findJobsByIdPrefix` (jobs by the start of their id, once listed), read
 * from the same keyspace by every source.
 */

import assert from "node:assert/strict";
import { type Fixture as KeyspaceDump, fixtureTime, readFixture } from "../helpers/fixture.ts";
import type { Seed } from "./source_contract.ts";

const T = fixtureTime(1795345700000);

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

const TWINS = ["c0ffee00-0000-4000-8000-000000000001", "c0ffee00-0000-4000-8000-000000000002"];

/** Two waiting send-email jobs whose ids share their first 34 characters. */
function withTwins(dump: KeyspaceDump): KeyspaceDump {
  const base = "taskora:{send-email}";
  const keys = { ...dump.keys };
  keys[`${base}:wait`] = { type: "list", pttl: -1, value: [...TWINS].reverse() };
  for (const id of TWINS) {
    keys[`${base}:${id}`] = {
      type: "hash",
      pttl: -1,
      value: { state: "waiting", _v: "1", attempt: "1", maxAttempts: "1", ts: String(T) },
    };
  }
  return { ...dump, keys };
}

/** Registers the lookup contract for one source. */
export function lookupContract(name: string, seed: Seed): void {
  Deno.test(`${name}: finds listed jobs by the start of their id`, async () => {
    const harness = await seed(withTwins(readFixture()));
    try {
      const { source } = harness;
      await source.listJobs("send-email", "waiting", 0, 10);
      const [failed] = (await source.listJobs("send-email", "failed", 0, 1)).jobs;
      const twins = TWINS.map((id) => ({ id, task: "send-email" }));
      assert.deepEqual(await source.findJobsByIdPrefix("c0ffee00", 10), twins);
      assert.deepEqual(await source.findJobsByIdPrefix("c0ffee00", 1), [twins[0]]);
      assert.deepEqual(await source.findJobsByIdPrefix(TWINS[1], 10), [twins[1]]);
      assert.deepEqual(await source.findJobsByIdPrefix(failed.id.slice(0, 8), 10), [
        { id: failed.id, task: "send-email" },
      ]);
      assert.deepEqual(await source.findJobsByIdPrefix("no-such-prefix", 10), []);
    } finally {
      await harness.close();
    }
  });

  Deno.test(`${name}: reads the job active longest and the one due first, per task`, async () => {
    const harness = await seed(withBusyBilling(readFixture()));
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
        oldestActive: {
          id: "d8e1df37-39dd-4863-9508-f7c9bd517880",
          since: fixtureTime(1795345687928),
        },
        nextDue: null,
      });
      assert.deepEqual(heads.get("resize-image"), {
        oldestActive: null,
        nextDue: { id: "29edcd55-6a5a-4d7f-ae0c-3919ab99f8e9", at: fixtureTime(1795349287498) },
      });
      const none = { oldestActive: null, nextDue: null };
      assert.deepEqual(heads.get("sum"), none);
      assert.deepEqual(heads.get("no-such-task"), none);
    } finally {
      await harness.close();
    }
  });
}
