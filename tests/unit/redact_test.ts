import assert from "node:assert/strict";
import { CIRCULAR, REDACTED } from "../../src/contract/masks.ts";
import { createRedactor } from "../../src/contract/redact.ts";
import { innermost, nested } from "../helpers/nested.ts";

Deno.test("createRedactor() masks keys at any depth, in any case, inside arrays", () => {
  const redact = createRedactor(["password", "APIKEY"]);
  const input = { user: { Password: "hunter2", name: "ada" }, list: [{ apiKey: "k" }, 3] };
  assert.deepEqual(redact(input), {
    user: { Password: REDACTED, name: "ada" },
    list: [{ apiKey: REDACTED }, 3],
  });
  assert.deepEqual(input.user.Password, "hunter2", "the input is left as it was");
});

Deno.test("createRedactor() keeps the key order of the source", () => {
  const redact = createRedactor(["b"]);
  assert.deepEqual(Object.keys(redact({ c: 1, b: 2, a: { z: 1 } }) as object), ["c", "b", "a"]);
});

Deno.test("createRedactor() masks a value 100,000 levels deep without recursion", () => {
  const levels = 100_000;
  const redact = createRedactor(["password"]);
  const masked = redact(nested(levels, { password: "hunter2", kept: true }));
  assert.deepEqual(innermost(masked, levels), { password: REDACTED, kept: true });
  assert.match(JSON.stringify(masked), /\{"password":"\[REDACTED\]","kept":true\}/);
});

Deno.test("createRedactor() cuts a value that contains itself instead of looping", () => {
  const redact = createRedactor(["password"]);
  const loop: Record<string, unknown> = { password: "x", name: "loop" };
  loop.self = loop;
  loop.list = [loop];
  assert.deepEqual(redact(loop), {
    password: REDACTED,
    name: "loop",
    self: CIRCULAR,
    list: [CIRCULAR],
  });
  const shared = { token: 1 };
  assert.deepEqual(redact({ a: shared, b: shared }), { a: { token: 1 }, b: { token: 1 } });
});

Deno.test("createRedactor() keeps a __proto__ key as data, masked inside", () => {
  const redact = createRedactor(["password"]);
  const masked = redact(JSON.parse('{"__proto__":{"password":"x","y":1}}')) as object;
  assert.equal(Object.getPrototypeOf(masked), Object.prototype);
  assert.equal(JSON.stringify(masked), '{"__proto__":{"password":"[REDACTED]","y":1}}');
});

Deno.test("createRedactor() with no keys returns values as they are", () => {
  const value = { password: "x" };
  assert.equal(createRedactor([])(value), value);
});
