/**
 * The BoardStore contract for the drain forecast's backlog samples
 * (`writeBacklogSample`, `readBacklogSamples`): kept per minute for every
 * board on the store, merged when a minute is written twice, null where
 * no sample is kept.
 */

import assert from "node:assert/strict";
import type { StoreSeed } from "./board_store_contract.ts";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Registers the backlog sample contract for the store `seed` makes. */
export function backlogSampleContract(name: string, seed: StoreSeed): void {
  Deno.test(`${name}: backlog samples are read back per minute, merged, and null where none is kept`, async () => {
    const { store, close } = await seed();
    try {
      const at = 1_800_000_000_000;
      const sample = (backlog: number) => ({ at: at + 12_345, backlog, finishedBefore: 3 });
      await store.writeBacklogSample(
        at,
        new Map([["mail", sample(120)], ["resize", sample(4)]]),
        HOUR,
      );
      await store.writeBacklogSample(at + MINUTE, new Map([["mail", sample(90)]]), HOUR);
      // A second board's write of the same minute adds to it.
      await store.writeBacklogSample(at, new Map([["report", sample(7)]]), HOUR);
      assert.deepEqual(
        await store.readBacklogSamples("mail", [at, at + MINUTE, at + 2 * MINUTE]),
        [sample(120), sample(90), null],
      );
      assert.deepEqual(await store.readBacklogSamples("report", [at, at + MINUTE]), [
        sample(7),
        null,
      ]);
      assert.deepEqual(await store.readBacklogSamples("no-such-task", [at]), [null]);
    } finally {
      await close();
    }
  });
}
