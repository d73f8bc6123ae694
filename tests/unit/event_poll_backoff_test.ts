/**
 * The event reader on a cluster polls: it backs off while the streams are
 * quiet and follows closely again once an event comes, after a gathering
 * pause. Driven through a
 * fake command pipeline and a fake pause that records how long the reader
 * asked to wait, so no test depends on timers.
 */

import assert from "node:assert/strict";
import { RedisEventReader } from "../../src/source/redis/event_reader.ts";
import type { TaskEvent } from "../../src/source/types.ts";

/** A cluster-like reader over one task; its pauses are recorded and `rounds` bounds the run. */
function pollingReader(rounds: number, eventAtRound?: number) {
  const pauses: number[] = [];
  const events: TaskEvent[] = [];
  let round = 0;
  let finished = () => {};
  const done = new Promise<void>((resolve) => finished = resolve);
  const reader = new RedisEventReader({
    createClient: null,
    pipeline: (commands) => {
      if (commands[0][0] === "TIME") return Promise.resolve([["1700000000", "0"]]);
      round++;
      const entry: [string, string[]] = ["1700000000001-0", ["event", "completed", "jobId", "j1"]];
      return Promise.resolve(
        commands.map(([, , , , key]) => round === eventAtRound ? [[key, [entry]]] : null),
      );
    },
    listTasks: () => Promise.resolve(["email"]),
    refreshTasks: () => Promise.resolve(["email"]),
    pause: (ms) => {
      pauses.push(ms);
      if (pauses.length >= rounds) finished();
      return new Promise((resolve) => setTimeout(resolve, 0));
    },
  }, { pollMs: 10, idlePollMs: 80, gatherMs: 30 });
  const stop = reader.subscribe((event) => events.push(event));
  return { pauses, events, done: done.then(stop) };
}

Deno.test("a quiet cluster is polled less and less often, down to one round per idlePollMs", async () => {
  const { pauses, done } = pollingReader(7);
  await done;
  assert.deepEqual(pauses.slice(0, 7), [10, 20, 40, 80, 80, 80, 80]);
});

Deno.test("an event after a quiet spell is delivered, and the next rounds are quick again", async () => {
  // Rounds 1–5 find nothing (pauses 10, 20, 40, 80, 80), round 6 an event (the gathering pause,
  // 30: entries written meanwhile come in one round), then quiet.
  const { pauses, events, done } = pollingReader(9, 6);
  await done;
  assert.equal(events.length, 1);
  assert.equal(events[0].jobId, "j1");
  assert.deepEqual(pauses.slice(0, 9), [10, 20, 40, 80, 80, 30, 10, 20, 40]);
});
