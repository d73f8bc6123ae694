/**
 * The TaskSource contract for the drain forecast's backlog samples
 * (`writeBacklogSample`, `readBacklogSamples`): kept per minute for every
 * board on the store, merged when a minute is written twice, null where
 * no sample is kept.
 */

import assert from "node:assert/strict";
import { readFixture } from "../helpers/fixture.ts";
import type { Seed } from "./source_contract.ts";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Registers the backlog sample contract tests for one source. */
export function backlogContract(name: string, seed: Seed): void {
  Deno.test(`${name}: backlog samples are read back per minute, merged, and null where none is kept`, async () => {
    const { source, close } = await seed(readFixture());
    try {
      const at = 1_800_000_000_000;
      await source.writeBacklogSample!(at, new Map([["mail", 120], ["resize", 4]]), HOUR);
      await source.writeBacklogSample!(at + MINUTE, new Map([["mail", 90]]), HOUR);
      // A second board's write of the same minute adds to it.
      await source.writeBacklogSample!(at, new Map([["report", 7]]), HOUR);
      assert.deepEqual(
        await source.readBacklogSamples!("mail", [at, at + MINUTE, at + 2 * MINUTE]),
        [120, 90, null],
      );
      assert.deepEqual(await source.readBacklogSamples!("report", [at, at + MINUTE]), [7, null]);
      assert.deepEqual(await source.readBacklogSamples!("no-such-task", [at]), [null]);
    } finally {
      await close();
    }
  });
}
