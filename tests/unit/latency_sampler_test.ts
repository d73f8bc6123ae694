import assert from "node:assert/strict";
import { createLatencySampler } from "../../src/samplers/latency.ts";
import type { FinishedTiming } from "../../src/contract/latency.ts";
import type { TaskSource } from "../../src/source/types.ts";

/** A source whose finished jobs the test writes, recording each read's `since`. */
function fakeSource(finished: FinishedTiming[]) {
  const reads: (number | undefined)[] = [];
  let failNext = false;
  const source = {
    getFinishedTimings(_task: string, limit: number, since?: number) {
      reads.push(since);
      if (failNext) {
        failNext = false;
        return Promise.reject(new Error("store down"));
      }
      return Promise.resolve(
        finished
          .filter((t) => since === undefined || t.finishedAt >= since)
          .sort((a, b) => b.finishedAt - a.finishedAt)
          .slice(0, limit),
      );
    },
  } as unknown as TaskSource;
  return { source, reads, failOnce: () => failNext = true };
}

const job = (id: string, finishedAt: number, run = 10): FinishedTiming => ({
  id,
  createdAt: finishedAt - run - 5,
  delay: 0,
  processedAt: finishedAt - run,
  finishedAt,
});

Deno.test("createLatencySampler() reuses a sample for maxAgeMs, then reads only what finished since", async () => {
  const finished = [job("a", 1000), job("b", 2000)];
  const { source, reads } = fakeSource(finished);
  let clock = 0;
  const sampler = createLatencySampler(source, { sampleSize: 3, maxAgeMs: 100, now: () => clock });
  assert.equal((await sampler.sample("t")).jobs, 2);
  clock = 50;
  await sampler.sample("t");
  assert.deepEqual(reads, [undefined]);
  // Two more, one in the very millisecond of the newest kept: told apart by id.
  finished.push(job("c", 2000, 30), job("d", 3000, 40));
  clock = 150;
  const sample = await sampler.sample("t");
  assert.deepEqual(reads, [undefined, 2000]);
  // Three kept: d, c, b (a, the oldest, dropped); b is not counted twice.
  assert.equal(sample.jobs, 3);
  assert.equal(sample.from, 2000);
  assert.equal(sample.to, 3000);
  assert.deepEqual(sample.run.percentiles, { p50: 30, p95: 40, p99: 40 });
});

Deno.test("createLatencySampler() keeps no failed read and at most maxTasks tasks", async () => {
  const { source, reads, failOnce } = fakeSource([job("a", 1000)]);
  const sampler = createLatencySampler(source, { maxAgeMs: 100, maxTasks: 2, now: () => 0 });
  failOnce();
  await assert.rejects(sampler.sample("t"), /store down/);
  assert.equal((await sampler.sample("t")).jobs, 1);
  assert.deepEqual(reads, [undefined, undefined]);
  await sampler.sample("u");
  await sampler.sample("v"); // t, the least recently asked, is dropped
  await sampler.sample("t");
  assert.deepEqual(reads, [undefined, undefined, undefined, undefined, undefined]);
  await sampler.sample("v"); // still kept
  assert.equal(reads.length, 5);
});
