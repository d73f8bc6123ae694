import assert from "node:assert/strict";
import { BoardError } from "../../src/errors.ts";
import { keepMasked } from "../../src/source/keep_masked.ts";

Deno.test("keepMasked() keeps the stored value under every masked key, any case, any depth", () => {
  const stored = {
    Token: "a",
    list: [{ token: "b" }, { token: "c" }],
    deep: { x: { TOKEN: "d" } },
  };
  const sent = {
    Token: "[REDACTED]",
    list: [{ token: "[REDACTED]" }, { token: "typed" }],
    deep: { x: { TOKEN: "[REDACTED]", y: 1 } },
    added: 2,
  };
  const before = structuredClone(sent);
  assert.deepEqual(keepMasked(stored, sent, ["token"], "data"), {
    Token: "a",
    list: [{ token: "b" }, { token: "c" }],
    deep: { x: { TOKEN: "d", y: 1 } },
    added: 2,
  });
  assert.deepEqual(sent, before, "what was sent is not changed");
});

Deno.test("keepMasked() writes a new value under a masked key where nothing is stored, never the mask", () => {
  assert.deepEqual(keepMasked({}, { token: "new" }, ["token"], "data"), { token: "new" });
  assert.throws(
    () => keepMasked({ a: {} }, { a: { token: "[REDACTED]" } }, ["token"], "data"),
    (error: unknown) =>
      error instanceof BoardError && error.param === "data" && /data\.a\.token/.test(error.message),
  );
});

Deno.test("keepMasked() sets a masked key named __proto__ as an own key, the prototype untouched", () => {
  const sent = JSON.parse('{"__proto__": "[REDACTED]"}');
  const kept = keepMasked(
    JSON.parse('{"__proto__": {"polluted": true}}'),
    sent,
    ["__proto__"],
    "data",
  );
  assert.equal(Object.getPrototypeOf(kept), Object.prototype);
  assert.deepEqual(Object.getOwnPropertyDescriptor(kept, "__proto__")?.value, { polluted: true });
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

Deno.test("keepMasked() without masked keys gives what was sent", () => {
  const sent = { token: "[REDACTED]" };
  assert.equal(keepMasked({ token: "a" }, sent, [], "data"), sent);
});
