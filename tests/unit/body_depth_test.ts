import assert from "node:assert/strict";
import { assertFieldDepth, MAX_FIELD_DEPTH, nestingDepth } from "../../src/http/body_depth.ts";
import { BoardError } from "../../src/errors.ts";
import { nested } from "../helpers/nested.ts";

Deno.test("nestingDepth() counts levels of objects and arrays", () => {
  assert.equal(nestingDepth(7), 0);
  assert.equal(nestingDepth(null), 0);
  assert.equal(nestingDepth({}), 1);
  assert.equal(nestingDepth({ a: [1, { b: 2 }], c: {} }), 3);
  assert.equal(nestingDepth(nested(500_000, 1)), 500_000);
});

Deno.test("assertFieldDepth() lets 64 levels through and refuses 65, naming the field", () => {
  assert.equal(MAX_FIELD_DEPTH, 64);
  assertFieldDepth({ data: nested(MAX_FIELD_DEPTH, 1), cron: "* * * * *" });
  assert.throws(
    () => assertFieldDepth({ cron: "* * * * *", data: nested(MAX_FIELD_DEPTH + 1, 1) }),
    (error: unknown) =>
      error instanceof BoardError && error.code === "INVALID_PARAM" &&
      error.message === "Invalid data: nests objects and arrays more than 64 levels deep",
  );
});
