import assert from "node:assert/strict";
import { jsonText } from "../../src/contract/json_text.ts";
import { innermost, nested } from "../helpers/nested.ts";

Deno.test("jsonText writes what JSON.stringify writes", () => {
  const samples: unknown[] = [
    null,
    true,
    0,
    -1.5e300,
    NaN,
    Infinity,
    'quote " backslash \\ line\n\u2028 emoji 😀',
    [],
    {},
    [1, "a", null, undefined, () => 1, { b: [true] }],
    { a: 1, skipped: undefined, f: () => 1, nested: { c: [{}] }, 'key "q"': 2 },
    { date: new Date(0), list: [new Date(1)] },
    { toJSON: () => ({ replaced: true }) },
    Object.defineProperty({}, "__proto__", { value: { x: 1 }, enumerable: true }),
  ];
  for (const sample of samples) assert.equal(jsonText(sample), JSON.stringify(sample));
  const shared = { same: true };
  assert.equal(jsonText([shared, shared]), JSON.stringify([shared, shared]));
});

Deno.test("jsonText writes 100,000 levels without touching the call stack", () => {
  const deep = nested(100_000, { password: "[REDACTED]" });
  // JSON.parse keeps its own stack: the text reads back whole.
  assert.deepEqual(innermost(JSON.parse(jsonText(deep)), 100_000), { password: "[REDACTED]" });
});

Deno.test("jsonText refuses a value that contains itself, as JSON.stringify does", () => {
  const loop: Record<string, unknown> = {};
  loop.self = { loop };
  assert.throws(() => jsonText(loop), TypeError);
});
