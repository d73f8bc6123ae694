/**
 * The TaskSource contract for workers (`readStreams` of `activity`,
 * `readLocks` of `active` jobs): when a task's workers last took and finished a job,
 * read from the newest entries of its event stream, and the locks of its
 * newest active jobs, read alike by every source from one keyspace.
 */

import assert from "node:assert/strict";
import { BoardError } from "../../src/errors.ts";
import { type Fixture as KeyspaceDump, readFixture } from "../helpers/fixture.ts";
import type { Seed } from "./source_contract.ts";

/** The fixture's one active `slow` job. */
const SLOW_ACTIVE = "485336b8-640e-4fb4-8639-b47005927994";

/** The times (ms) of a task's stream entries in the dump, oldest first, with their kind. */
export function streamOf(dump: KeyspaceDump, task: string): { event: string; at: number }[] {
  const key = dump.keys[`taskora:{${task}}:events`];
  assert.ok(key && key.type === "stream");
  return key.value.map(({ id, fields }) => ({ event: fields.event, at: Number(id.split("-")[0]) }));
}

const code = (expected: string) => (error: unknown) =>
  error instanceof BoardError && error.code === expected;

/** Registers the workers contract tests for one source. */
export function workersContract(name: string, seed: Seed): void {
  const dump = readFixture();

  Deno.test(`${name}: last taken and last finished come from the newest stream entries`, async () => {
    const { source, close } = await seed(dump);
    try {
      // notify's stream: waiting, active, completed; slow's: waiting, active.
      const notify = streamOf(dump, "notify");
      assert.deepEqual(notify.map((e) => e.event), ["waiting", "active", "completed"]);
      const slow = streamOf(dump, "slow");
      const activity = await source.readStreams!({
        kind: "activity",
        tasks: ["notify", "slow", "no-such-task"],
        depth: 100,
      });
      assert.deepEqual(activity.get("notify"), {
        lastTakenAt: notify[1].at,
        lastFinishedAt: notify[2].at,
        scanned: 3,
        coveredSince: notify[0].at,
      });
      assert.deepEqual(activity.get("slow"), {
        lastTakenAt: slow[1].at,
        lastFinishedAt: null,
        scanned: 2,
        coveredSince: slow[0].at,
      });
      assert.deepEqual(activity.get("no-such-task"), {
        lastTakenAt: null,
        lastFinishedAt: null,
        scanned: 0,
        coveredSince: null,
      });
    } finally {
      await close();
    }
  });

  Deno.test(`${name}: a shallow read looks at the newest entries only and says how far back it saw`, async () => {
    const { source, close } = await seed(dump);
    try {
      const notify = streamOf(dump, "notify");
      const [shallow] =
        (await source.readStreams!({ kind: "activity", tasks: ["notify"], depth: 1 })).values();
      assert.deepEqual(shallow, {
        lastTakenAt: null,
        lastFinishedAt: notify[2].at,
        scanned: 1,
        coveredSince: notify[2].at,
      });
    } finally {
      await close();
    }
  });

  Deno.test(`${name}: the active jobs' count and their locks; TASK_NOT_FOUND for an unknown task`, async () => {
    const locked: KeyspaceDump = {
      ...dump,
      keys: {
        ...dump.keys,
        [`taskora:{slow}:${SLOW_ACTIVE}:lock`]: { type: "string", pttl: 20_000, value: "tok-slow" },
      },
    };
    const { source, close } = await seed(locked);
    try {
      const { active, locks } = await source.readLocks!({
        kind: "active",
        task: "slow",
        limit: 100,
      });
      assert.equal(active, 1);
      assert.equal(locks.length, 1);
      assert.equal(locks[0].id, SLOW_ACTIVE);
      assert.equal(locks[0].token, "tok-slow");
      assert.ok(locks[0].ttlMs! > 0 && locks[0].ttlMs! <= 20_000, `ttl ${locks[0].ttlMs}`);
      assert.deepEqual(
        await source.readLocks!({ kind: "active", task: "slow", limit: 0 }).then((r) => r.locks),
        [],
      );
      await assert.rejects(
        source.readLocks!({ kind: "active", task: "no-such-task", limit: 10 }),
        code("TASK_NOT_FOUND"),
      );
    } finally {
      await close();
    }
  });
}
