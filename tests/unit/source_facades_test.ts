/**
 * Each TaskSource adapter is assembled from its concerns (issue 34): the
 * file that makes its facade only lists its parts, so a change to how a
 * failed job is retried, say, is made in the part and the file named for it.
 */

import assert from "node:assert/strict";

/** The most lines a facade's file may have: the parts' list, its lifecycle and its docs. */
const MAX_FACADE_LINES = 150;

const FACADES = [
  "src/source/redis/mod.ts",
  "src/source/memory/source.ts",
  "src/taskora/api_source.ts",
];

for (const facade of FACADES) {
  Deno.test(`${facade} assembles its source from parts, in at most ${MAX_FACADE_LINES} lines`, async () => {
    const text = await Deno.readTextFile(new URL(`../../${facade}`, import.meta.url));
    assert.match(text, /assemble\(/, "it assembles its parts");
    const lines = text.split("\n").length - 1;
    assert.ok(lines <= MAX_FACADE_LINES, `${lines} lines`);
  });
}
