/**
 * The contract of the change feed's store (`src/store/feed.ts`), run on
 * every adapter: the last ids resume where they were saved, the live state
 * keeps one row per task and an index whose page reads the rows it shows,
 * and a replica's need for the feed is seen by every replica.
 */

import assert from "node:assert/strict";
import { readLivePage } from "../../src/feed/live_read.ts";
import type { LiveIndex, LiveRow } from "../../src/store/feed.ts";
import type { QueueStats } from "../../src/contract/states.ts";
import { totalsOf } from "../../src/contract/totals.ts";
import { NO_JOBS, readFixture } from "../helpers/fixture.ts";
import { pairedStore } from "../../src/store/pairing.ts";
import type { Seed } from "./source_contract.ts";

const counts = (waiting: number): QueueStats => ({ ...NO_JOBS, waiting });

/** A row of `name` with `waiting` jobs, judged `status`. */
export function rowOf(name: string, waiting: number, status: LiveRow["health"]["status"]): LiveRow {
  return {
    name,
    stats: counts(waiting),
    retryingAsOf: null,
    heads: { oldestWaiting: null, oldestActive: null, nextDue: null },
    health: { status, reason: status, failureRate: null, noProgress: false },
    rate: { from: 0, bucketMs: 60_000, completed: [], failed: [] },
    lastTakenAt: null,
    reruns: 0,
    rerunLog: [],
    readAt: 1_000,
    coveredSince: 1_000,
  };
}

/** The index of `rows`. */
export function indexOf(rows: readonly LiveRow[]): LiveIndex {
  const healthCounts = { critical: 0, warning: 0, healthy: 0, idle: 0 };
  for (const row of rows) healthCounts[row.health.status]++;
  return {
    tasks: rows.map((row) => ({
      name: row.name,
      stats: row.stats,
      retryingAsOf: row.retryingAsOf,
      health: { status: row.health.status },
      latency: { oldestWaiting: null },
    })),
    totals: totalsOf(rows.map((row) => row.stats)),
    healthCounts,
  };
}

/** Registers the feed store contract for the store the source `seed` makes brings. */
export function feedStoreContract(name: string, seed: Seed): void {
  const dump = readFixture();

  Deno.test(`${name}: feed store: the last ids saved are read back, a task gone is dropped`, async () => {
    const { source, close } = await seed(dump);
    try {
      const feed = pairedStore(source)!.feed!;
      assert.deepEqual(await feed.readFeedPositions(), new Map());
      await feed.saveFeedPositions(new Map([["a", "10-0"], ["b", "20-1"]]));
      await feed.saveFeedPositions(new Map([["a", "11-0"]]), ["b"]);
      assert.deepEqual(await feed.readFeedPositions(), new Map([["a", "11-0"]]));
    } finally {
      await close();
    }
  });

  Deno.test(`${name}: feed store: a page of the live state reads its rows, sorted by health`, async () => {
    const { source, close } = await seed(dump);
    try {
      const feed = pairedStore(source)!.feed!;
      assert.equal(await feed.readLiveSummary(), null, "no leader kept one yet");
      assert.equal(await feed.readLiveState(), null);
      const rows = [
        rowOf("a", 1, "healthy"),
        rowOf("b", 2, "critical"),
        rowOf("c", 3, "warning"),
        rowOf("d", 0, "idle"),
      ];
      await feed.writeLiveState({ asOf: 1_000, index: indexOf(rows), rows });
      const page = await readLivePage(feed, { sort: "health", limit: 2 }, 2_000, 3_000);
      assert.deepEqual(page?.tasks.map((task) => task.name), ["b", "c"]);
      assert.equal(page?.matched, 4);
      assert.equal(page?.asOf, 1_000);
      assert.deepEqual(page?.healthCounts, { critical: 1, warning: 1, healthy: 1, idle: 1 });
      assert.equal(page?.totals.waiting, 6);

      // A pass that changed one row and dropped a task.
      const changed = rowOf("b", 0, "healthy");
      const kept = [rows[0], changed, rows[2]];
      await feed.writeLiveState({
        asOf: 4_000,
        index: indexOf(kept),
        rows: [changed],
        removed: ["d"],
      });
      assert.deepEqual(await feed.readLiveRows(["b", "d"]), [changed, null]);
      const whole = await feed.readLiveState();
      assert.equal(whole?.asOf, 4_000);
      assert.deepEqual(whole?.index, indexOf(kept));
      assert.deepEqual(whole?.rows, new Map(kept.map((row) => [row.name, row])), "d dropped");
      const next = await readLivePage(feed, { sort: "health" }, 5_000, 3_000);
      assert.deepEqual(next?.tasks.map((task) => task.name), ["c", "a", "b"]);
      // A pass with nothing changed moves the asOf only.
      await feed.writeLiveState({ asOf: 7_000 });
      assert.equal((await feed.readLiveSummary())?.asOf, 7_000);
      assert.equal(await readLivePage(feed, {}, 10_001, 3_000), null, "older than the interval");
    } finally {
      await close();
    }
  });

  Deno.test(`${name}: feed store: a mark is read with the summary, new at each change`, async () => {
    const { source, close } = await seed(dump);
    try {
      const feed = pairedStore(source)!.feed!;
      const rows = [rowOf("a", 1, "healthy")];
      await feed.writeLiveState({ asOf: 1_000, index: indexOf(rows), rows });
      assert.deepEqual((await feed.readLiveSummary())!.marks, {}, "never marked");
      await feed.mark("operations");
      const first = (await feed.readLiveSummary())!.marks?.operations;
      assert.equal(typeof first, "string");
      await feed.writeLiveState({ asOf: 2_000 });
      assert.equal((await feed.readLiveSummary())!.marks?.operations, first, "a pass keeps it");
      await feed.mark("operations");
      assert.notEqual((await feed.readLiveSummary())!.marks?.operations, first);
    } finally {
      await close();
    }
  });

  Deno.test(`${name}: feed store: a replica's need for the feed is seen by all`, async () => {
    const { source, close } = await seed(dump);
    try {
      assert.equal(await pairedStore(source)!.feed!.hasFeedDemand(), false);
      await pairedStore(source)!.feed!.noteFeedDemand(30_000);
      assert.equal(await pairedStore(source)!.feed!.hasFeedDemand(), true);
    } finally {
      await close();
    }
  });
}
