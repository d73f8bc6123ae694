/**
 * The TaskSource contract for liveness (`readLocks` of `jobs` and of the
 * `scheduler`): the job locks, stalled jobs (active without a
 * lock) and scheduler leader lock of one keyspace, read alike by every
 * source.
 */

import assert from "node:assert/strict";
import { BoardError } from "../../src/errors.ts";
import { type Fixture as KeyspaceDump, readFixture } from "../helpers/fixture.ts";
import type { Seed } from "./source_contract.ts";

/** The fixture's one active `slow` job (its dump holds no lock for it). */
const SLOW_ACTIVE = "485336b8-640e-4fb4-8639-b47005927994";
const TRANSCODE_ACTIVE = "d8e1df37-39dd-4863-9508-f7c9bd517880";

/**
 * The fixture with a worker's lock on {@link SLOW_ACTIVE} (20 s left), a
 * stalled set of two (one of them that job), a lock with no expiry on the
 * `transcode` job, and a scheduler holding the leader lock (25 s left).
 */
function withLocks(dump: KeyspaceDump): KeyspaceDump {
  return {
    ...dump,
    keys: {
      ...dump.keys,
      [`taskora:{slow}:${SLOW_ACTIVE}:lock`]: { type: "string", pttl: 20_000, value: "tok-slow" },
      [`taskora:{slow}:stalled`]: { type: "set", pttl: -1, value: ["zz-gone", SLOW_ACTIVE] },
      [`taskora:{transcode}:${TRANSCODE_ACTIVE}:lock`]: {
        type: "string",
        pttl: -1,
        value: "tok-forever",
      },
      "taskora:schedules:lock": { type: "string", pttl: 25_000, value: "scheduler-token" },
    },
  };
}

const code = (expected: string) => (error: unknown) =>
  error instanceof BoardError && error.code === expected;

/** Registers the liveness contract tests for one source. */
export function livenessContract(name: string, seed: Seed): void {
  const dump = readFixture();

  Deno.test(`${name}: an active job without a lock reads as no lock and stalled, and no scheduler leads`, async () => {
    const { source, close } = await seed(dump);
    try {
      const liveness = await source.readLocks!({
        kind: "jobs",
        task: "slow",
        jobIds: [SLOW_ACTIVE],
      });
      assert.deepEqual(liveness, {
        known: true,
        locks: [{ id: SLOW_ACTIVE, token: null, ttlMs: null, inStalledSet: false }],
        stalled: { ids: [SLOW_ACTIVE], total: 1, checked: 1 },
      });
      assert.deepEqual(await source.readLocks!({ kind: "scheduler" }), {
        known: true,
        leader: null,
      });
    } finally {
      await close();
    }
  });

  Deno.test(`${name}: reads each named job's lock token and time left; a locked job in the stalled set is not stalled`, async () => {
    const { source, close } = await seed(withLocks(dump));
    try {
      const liveness = await source.readLocks!({
        kind: "jobs",
        task: "slow",
        jobIds: [SLOW_ACTIVE, "not-a-job"],
      });
      assert.ok(liveness.known);
      const [held, none] = liveness.locks;
      assert.equal(held.token, "tok-slow");
      assert.ok(held.ttlMs! > 0 && held.ttlMs! <= 20_000, `ttl ${held.ttlMs}`);
      assert.equal(held.inStalledSet, true);
      assert.deepEqual(none, { id: "not-a-job", token: null, ttlMs: null, inStalledSet: false });
      assert.deepEqual(liveness.stalled, { ids: [], total: 0, checked: 1 }, "its lock is alive");

      const forever = await source.readLocks!({
        kind: "jobs",
        task: "transcode",
        jobIds: [TRANSCODE_ACTIVE],
      });
      assert.ok(forever.known);
      assert.deepEqual(forever.locks[0], {
        id: TRANSCODE_ACTIVE,
        token: "tok-forever",
        ttlMs: null,
        inStalledSet: false,
      });
    } finally {
      await close();
    }
  });

  Deno.test(`${name}: reads the scheduler leader lock's token and time left`, async () => {
    const { source, close } = await seed(withLocks(dump));
    try {
      const leadership = await source.readLocks!({ kind: "scheduler" });
      assert.ok(leadership.known && leadership.leader);
      assert.equal(leadership.leader.token, "scheduler-token");
      const ttl = leadership.leader.ttlMs!;
      assert.ok(ttl > 0 && ttl <= 25_000, `ttl ${ttl}`);
    } finally {
      await close();
    }
  });

  Deno.test(`${name}: liveness of an unknown task is TASK_NOT_FOUND; no ids reads only the stalled jobs`, async () => {
    const { source, close } = await seed(withLocks(dump));
    try {
      await assert.rejects(
        source.readLocks!({ kind: "jobs", task: "no-such-task", jobIds: [] }),
        code("TASK_NOT_FOUND"),
      );
      const empty = await source.readLocks!({ kind: "jobs", task: "slow", jobIds: [] });
      assert.ok(empty.known);
      assert.deepEqual(empty.locks, []);
      assert.deepEqual(empty.stalled, { ids: [], total: 0, checked: 1 });
    } finally {
      await close();
    }
  });
}
