/**
 * Three Redis sources on one real Redis, as three board processes: one
 * leads and alone runs discovery (SCAN) and the reconcile of the retrying
 * split (ZSCAN); the others serve the results it shares, with its `asOf`.
 * All on fake timers: the lease's turns and the background passes move
 * only when the test moves the clock, and the lease's answers (held until
 * the test lets them through) come before it moves it on.
 */

import assert from "node:assert/strict";
import { RedisTaskSource } from "../../src/source/redis/mod.ts";
import { boardKeys } from "../../src/source/wire/keys.ts";
import { commandsOf } from "../helpers/command_stats.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { type HeldLeases, holdLeaseAnswers } from "../helpers/held_leases.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { writeJob } from "../helpers/wire_writer.ts";

const LEASE_MS = 9_000;
const TURN_MS = LEASE_MS / 3;
/** How far the clock moves at once: less than a lease turn. */
const STEP_MS = TURN_MS / 3;
const TASKS = ["email", "image", "report"];

type Client = Awaited<ReturnType<typeof connectClient>>;

/** What a test gets: the sources, a client, and the one way it moves their clock. */
interface Sources {
  sources: RedisTaskSource[];
  client: Client;
  url: string;
  /**
   * Moves the sources' clock on by `ms`, a step shorter than a lease turn at
   * a time, each take or renewal under way answered before the clock moves
   * on (and once more at the end), as real time waits for Redis; `move(0)`
   * runs what is due now. One jump
   * past a take in flight counted its answer at the wrong time: a follower
   * that asked at 0 and heard back at 10 s set its next try for 13 s.
   */
  move(ms: number): Promise<void>;
}

/** A Redis with three tasks (two retrying jobs in `email`), and `count` sources on it. */
async function withSources(count: number, fn: (ctx: Sources) => Promise<void>): Promise<void> {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  const timers = new FakeTimers();
  const sources: RedisTaskSource[] = [];
  const held: HeldLeases[] = [];
  const answered = async () => {
    for (const leases of held) await leases.answered();
  };
  try {
    for (const task of TASKS) await writeJob(client as never, { task, state: "waiting" });
    for (let i = 0; i < 2; i++) {
      await writeJob(client as never, {
        task: "email",
        state: "retrying",
        runAt: Date.now() + 60_000,
      });
    }
    for (let i = 0; i < count; i++) {
      sources.push(new RedisTaskSource({ url: redis.url, leaseMs: LEASE_MS }, timers));
      held.push(holdLeaseAnswers(sources[i].boardStore));
    }
    await fn({
      sources,
      client,
      url: redis.url,
      move: async (ms) => {
        let moved = 0;
        do {
          await answered();
          await timers.tick(Math.min(STEP_MS, ms - moved));
          moved += STEP_MS;
        } while (moved < ms);
        await answered();
      },
    });
  } finally {
    // Closing waits for a take under way: its answer must be let through first.
    await answered();
    for (const source of sources) await source.close();
    await client.close();
    await redis.stop();
  }
}

/** Source `leader` starts, discovers, takes the lease, reconciles, and shares it all. */
async function lead(source: RedisTaskSource, move: Sources["move"]): Promise<void> {
  assert.deepEqual(await source.listTasks(), TASKS);
  await source.getStats(TASKS); // the counts are looked at: the reconcile wakes, and competes
  await move(0);
  assert.equal(source.leading, true, "the first take");
  await source.reconcileRetrying();
  await move(TURN_MS); // its turn shares the list and the figures
}

Deno.test("of three sources on one Redis, only the leader SCANs and reconciles; the others serve its results with its asOf", async () => {
  await withSources(3, async ({ sources: [a, b, c], client, move }) => {
    await lead(a, move);
    const asOf = a.retryingAsOf(TASKS);
    assert.notEqual(asOf.get("email"), null, "the leader reconciled");
    const calls = await commandsOf(client, async () => {
      for (const follower of [b, c]) {
        assert.deepEqual(await follower.listTasks(), TASKS);
        await follower.getStats(TASKS);
      }
      await move(TURN_MS); // their turns read the leader's figures
      for (const follower of [b, c]) {
        // The turn's read is a Redis round trip of its own, after the lease's answer.
        await waitFor(() => follower.retryingAsOf(TASKS).get("email") === asOf.get("email"), {
          what: "the follower's turn to read the leader's figures",
        });
        assert.equal(follower.leading, false);
        assert.equal((await follower.getStats(TASKS)).get("email")!.retrying, 2);
        assert.deepEqual(follower.retryingAsOf(TASKS), asOf);
      }
    });
    assert.equal(calls.get("scan") ?? 0, 0, "no follower discovered for itself");
    assert.equal(calls.get("zscan") ?? 0, 0, "no follower reconciled");
  });
});

Deno.test("while three sources are watched for two minutes, only the leader's passes look at the keyspace", async () => {
  await withSources(3, async ({ sources, client, move }) => {
    await lead(sources[0], move);
    const calls = await commandsOf(client, async () => {
      for (let t = 0; t < 120_000; t += TURN_MS) {
        for (const source of sources) await source.getStats(TASKS); // each is looked at
        await move(TURN_MS);
      }
    }, { withInfo: true });
    // A pass over this small keyspace is one INFO keyspace, and one SCAN when its lasting keys
    // changed (`discovery.ts`); passes are at least 10 s apart.
    const passes = (calls.get("info") ?? 0) + (calls.get("scan") ?? 0);
    assert.ok(passes > 0 && passes <= 2 * (120_000 / 10_000 + 1), `${passes} INFOs and SCANs`);
  });
});

Deno.test("a leader that closes gives the lease back: another leads within a lease period and discovers", async () => {
  await withSources(3, async ({ sources, client, move }) => {
    const [a, b, c] = sources;
    await lead(a, move);
    for (const follower of [b, c]) {
      await follower.listTasks();
      await follower.getStats(TASKS); // looked at: its reconcile wakes and competes
    }
    await move(0); // their first takes find a leading
    await a.close();
    sources.shift();
    assert.equal(await client.get(boardKeys().lease("background")), null);
    await move(LEASE_MS + 1);
    assert.equal([b, c].filter((s) => s.leading).length, 1);
    const calls = await commandsOf(client, async () => {
      await b.listTasks({ fresh: true });
      await c.listTasks({ fresh: true });
    });
    assert.ok((calls.get("scan") ?? 0) > 0, "the new leader discovers");
  });
});

Deno.test("a new leader serves the figures the last one shared until it has counted them itself", async () => {
  await withSources(2, async ({ sources, move }) => {
    const [a, b] = sources;
    await lead(a, move);
    const asOf = a.retryingAsOf(TASKS).get("email");
    await b.listTasks();
    await b.getStats(TASKS); // looked at: its reconcile wakes and competes
    await move(TURN_MS); // b reads a's figures
    await waitFor(() => b.retryingAsOf(["email"]).get("email") === asOf, {
      what: "b's turn to read a's figures",
    });
    await a.close();
    sources.shift();
    await move(LEASE_MS + 1);
    assert.equal(b.leading, true, "b's take once a is gone");
    assert.equal(b.retryingAsOf(["email"]).get("email"), asOf, "a's figure, as old as it is");
    assert.equal((await b.getStats(["email"])).get("email")!.retrying, 2);
    await b.reconcileRetrying();
    assert.ok(b.retryingAsOf(["email"]).get("email")! > asOf!, "its own count, newer");
  });
});

Deno.test("a leader that stops renewing is replaced within one lease period", async () => {
  await withSources(1, async ({ sources: [follower], client, url, move }) => {
    // The leader, on a clock of its own that never moves again: it dies after its first take.
    const stopped = new FakeTimers();
    const dying = new RedisTaskSource({ url: url, leaseMs: LEASE_MS }, stopped);
    try {
      await dying.listTasks();
      await dying.getStats(TASKS);
      await stopped.tick(0); // its reconcile wakes and competes; its clock never moves again
      await waitFor(() => dying.leading, { what: "the first take to answer" });
      await follower.listTasks();
      await follower.getStats(TASKS); // looked at: its reconcile wakes and competes
      await move(TURN_MS);
      assert.equal(follower.leading, false);
      // One lease period passes in Redis with no renewal: the lease runs out there.
      await client.pExpire(boardKeys().lease("background"), 1);
      await move(LEASE_MS);
      assert.equal(follower.leading, true);
    } finally {
      await dying.close();
    }
  });
});

Deno.test("a follower with no leader result yet answers as a lone board does", async () => {
  await withSources(1, async ({ sources: [b], client, move }) => {
    // Another process holds the lease but has shared nothing yet.
    await client.set(boardKeys().lease("background"), "someone-else", { PX: 60_000 });
    assert.deepEqual(await b.listTasks(), TASKS);
    await b.getStats(TASKS);
    await move(TURN_MS);
    assert.equal(b.leading, false);
    const stats = await b.getStats(TASKS);
    assert.equal(stats.get("email")!.retrying, 0);
    assert.equal(b.retryingAsOf(["email"]).get("email"), null);
    assert.equal(stats.get("email")!.delayed, 2, "the delayed set as it is, split unknown");
  });
});
