import assert from "node:assert/strict";
import { Cadence } from "../../src/source/redis/cadence.ts";
import { Pacer } from "../../src/source/redis/pacer.ts";
import { Watch } from "../../src/source/redis/watch.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";

/** A cadence whose passes each spend `cost` commands of its pacer, on fake timers. */
function cadence(cost: number, options: { averagePerSecond?: number; freshnessMs?: number }) {
  const timers = new FakeTimers();
  const pacer = new Pacer(250);
  let passes = 0;
  const watch = new Watch(60_000, () => timers.now());
  watch.hold(); // an SSE client stays: watched throughout
  const cadence = new Cadence(
    () => {
      passes++;
      pacer.charge(cost);
      return Promise.resolve();
    },
    watch,
    { minMs: 10_000, factor: 30, pacer, timers, ...options },
  );
  return { cadence, timers, passes: () => passes };
}

Deno.test("Cadence: a pass that costs more comes less often than the freshness asks, when capped on average", async () => {
  const { cadence: capped } = cadence(1_000, { averagePerSecond: 10, freshnessMs: 60_000 });
  await capped.run();
  assert.equal(capped.nextPauseMs, 100_000, "1,000 commands at 10/s on average");
  await capped.stop();

  const { cadence: cheap } = cadence(50, { averagePerSecond: 10, freshnessMs: 60_000 });
  await cheap.run();
  assert.equal(cheap.nextPauseMs, 10_000, "a cheap pass waits its minimum only");
  await cheap.stop();

  const { cadence: uncapped } = cadence(1_000, { freshnessMs: 60_000 });
  await uncapped.run();
  assert.equal(uncapped.nextPauseMs, 10_000, "without the cap, as often as the minimum allows");
  await uncapped.stop();
});

Deno.test("Cadence: passes capped on average spend at most that rate over time", async () => {
  const { cadence: capped, timers, passes } = cadence(1_000, { averagePerSecond: 10 });
  await capped.run();
  await timers.tick(600_000);
  // Ten minutes at 10 commands/s: 6,000 commands, the first pass's included.
  assert.ok(passes() * 1_000 <= 7_000, `${passes()} passes`);
  assert.ok(passes() >= 6, `${passes()} passes`);
  await capped.stop();
});
