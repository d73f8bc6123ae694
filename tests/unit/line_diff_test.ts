import assert from "node:assert/strict";
import { collapse, lineDiff, MAX_DIFF_LINES } from "../../ui/pages/job/line_diff.ts";

const lines = (count: number, tag = "") =>
  Array.from({ length: count }, (_, i) => `${tag}${i}`).join("\n");

Deno.test("lineDiff marks kept, removed and added lines, in order", () => {
  assert.deepEqual(lineDiff("a\nb\nc\nd", "a\nc\nx\nd"), [
    { kind: "same", text: "a" },
    { kind: "removed", text: "b" },
    { kind: "same", text: "c" },
    { kind: "added", text: "x" },
    { kind: "same", text: "d" },
  ]);
  assert.deepEqual(lineDiff("", "{}"), [{ kind: "removed", text: "" }, {
    kind: "added",
    text: "{}",
  }]);
  assert.ok(lineDiff("same\ntext", "same\ntext")!.every((line) => line.kind === "same"));
});

Deno.test("lineDiff keeps the longest common run of a reordered block", () => {
  const diff = lineDiff("1\n2\n3\n4\n5", "1\n4\n2\n3\n5")!;
  assert.equal(diff.filter((line) => line.kind === "same").length, 4);
  assert.deepEqual(diff.filter((line) => line.kind !== "same").map((l) => l.text), ["4", "4"]);
});

Deno.test("lineDiff refuses past its bound on the changed part, not on the common part", () => {
  assert.equal(lineDiff(lines(MAX_DIFF_LINES + 1, "a"), lines(3, "b")), null);
  const big = lines(50_000);
  const diff = lineDiff(big, `${big}\nnew`)!;
  assert.equal(diff.length, 50_001);
  assert.deepEqual(diff.at(-1), { kind: "added", text: "new" });
});

Deno.test("collapse keeps three lines of context around each change", () => {
  const diff = lineDiff(lines(20), lines(20).replace("\n10\n", "\nten\n"))!;
  const kept = collapse(diff);
  assert.deepEqual(kept.map((line) => line.kind === "gap" ? `…${line.lines}` : line.text), [
    "…7",
    "7",
    "8",
    "9",
    "10",
    "ten",
    "11",
    "12",
    "13",
    "…6",
  ]);
});
