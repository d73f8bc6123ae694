/**
 * The event reader on a cluster polls: it backs off while the streams are
 * quiet and follows closely again once an event comes. Driven through a
 * fake command pipeline, so the rounds it makes can be counted.
 */

import assert from "node:assert/strict";
import { RedisEventReader } from "../../src/source/redis/event_reader.ts";
import type { TaskEvent } from "../../src/source/types.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A cluster-like reader over one task whose stream yields `pending` entries when asked. */
function pollingReader() {
  const state = { rounds: 0, pending: [] as [string, string[]][] };
  const reader = new RedisEventReader({
    createClient: null,
    pipeline: (commands) => {
      if (commands[0][0] === "TIME") return Promise.resolve([["1700000000", "0"]]);
      state.rounds++;
      const entries = state.pending.splice(0);
      return Promise.resolve(
        commands.map(([, , , , key]) => entries.length > 0 ? [[key, entries]] : null),
      );
    },
    listTasks: () => Promise.resolve(["email"]),
    refreshTasks: () => Promise.resolve(["email"]),
  }, { pollMs: 10, idlePollMs: 80 });
  return { reader, state };
}

Deno.test("a quiet cluster is polled less and less often, down to one round per idlePollMs", async () => {
  const { reader, state } = pollingReader();
  const stop = reader.subscribe(() => {});
  try {
    await sleep(600);
    // Without backing off: a round every 10 ms, ~60. Backing off: 10, 20, 40, then 80 ms apart.
    assert.ok(state.rounds >= 4 && state.rounds <= 16, `${state.rounds} rounds in 600 ms`);
  } finally {
    stop();
  }
});

Deno.test("an event after a quiet spell is delivered, and polling is quick again after it", async () => {
  const { reader, state } = pollingReader();
  const events: TaskEvent[] = [];
  const stop = reader.subscribe((event) => events.push(event));
  try {
    await sleep(400); // backed off to 80 ms between rounds
    state.pending.push(["1700000000001-0", ["event", "completed", "jobId", "j1"]]);
    while (events.length === 0) await sleep(5);
    assert.equal(events[0].jobId, "j1");
    const after = state.rounds;
    await sleep(100);
    // At once after the event, then 10, 20 and 40 ms apart (4 rounds in 70 ms); still backed
    // off, it would make one.
    assert.ok(state.rounds - after >= 3, `${state.rounds - after} rounds in 100 ms after an event`);
  } finally {
    stop();
  }
});
