/**
 * The DLQ's grouping cache (`DeadLetterGroups`): a read begun before a retry
 * is never what a request after the retry gets, nor what the cache keeps.
 */

import assert from "node:assert/strict";
import { DeadLetterGroups } from "../../src/source/redis/dead_letters.ts";
import type { DeadLetterEntry } from "../../src/source/dead_letters.ts";

const entry = (id: string): DeadLetterEntry => ({
  id,
  task: "send-email",
  error: "SMTP timeout",
  failedAt: 1,
});

/** Reads that answer only when the test says, in the order they were asked. */
function heldReads() {
  const held: { answer(entries: DeadLetterEntry[]): void }[] = [];
  const read = () => new Promise<DeadLetterEntry[]>((resolve) => held.push({ answer: resolve }));
  return { read, held };
}

Deno.test("DeadLetterGroups: a read begun before invalidate() answers no later request and is not kept", async () => {
  const { read, held } = heldReads();
  const groups = new DeadLetterGroups(read);
  const before = groups.get();
  assert.equal(held.length, 1);

  // A retry of job "a" ends while that read is under way: what is asked after must come from
  // a read begun after it.
  groups.invalidate();
  const after = groups.get();
  assert.equal(held.length, 2, "a read of its own for the request after the retry");
  held[1].answer([entry("b")]);
  assert.deepEqual((await after)[0].count, 1);

  // The earlier read answers last: its caller gets it, the cache keeps the later one.
  held[0].answer([entry("a"), entry("b")]);
  assert.equal((await before)[0].count, 2);
  assert.equal((await groups.get())[0].count, 1);
  assert.equal(held.length, 2, "served from the cache");
  assert.deepEqual((await groups.members("SMTP timeout")).map((e) => e.id), ["b"]);
});

Deno.test("DeadLetterGroups: settle() waits for every read still running, the invalidated ones too", async () => {
  const { read, held } = heldReads();
  const groups = new DeadLetterGroups(read);
  const first = groups.get();
  groups.invalidate();
  const second = groups.get();
  let settled = false;
  const settling = groups.settle().then(() => settled = true);
  held[1].answer([]);
  await second;
  // A turn of the event loop, not a wait: every promise settled by then has run its handlers.
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.equal(settled, false, "the first read still runs");
  held[0].answer([]);
  await first;
  await settling;
  assert.equal(settled, true);
});
