/**
 * The options' shape: an options object, and each object inside it, takes
 * its own keys only, each refused by its path, where hand-written checks
 * let some through unread.
 */

import assert from "node:assert/strict";
import { BoardOptionsError, resolveOptions } from "../../src/options.ts";

function refusal(options: unknown): string {
  try {
    resolveOptions(options as never);
  } catch (error) {
    assert.ok(error instanceof BoardOptionsError);
    return error.message;
  }
  assert.fail(`accepted ${JSON.stringify(options)}`);
}

Deno.test("options that are an array are refused, not read as no options", () => {
  assert.match(refusal([]), /option "options" must be an object \(got an array\)/);
});

Deno.test("formatters that are an array are refused", () => {
  assert.match(refusal({ formatters: [] }), /option "formatters" must be \{ data\?/);
});

Deno.test("a key cors does not take is refused by its path, not ignored", () => {
  assert.match(
    refusal({ cors: { origin: "https://ops.example", credentials: false } }),
    /option "cors\.credentials" must be absent \(got "credentials"\)/,
  );
  assert.deepEqual(resolveOptions({ cors: { origin: "https://ops.example" } }).cors, {
    origin: "https://ops.example",
  });
});

Deno.test("a lease period shorter than a second or longer than ten minutes is refused by name", () => {
  assert.match(
    refusal({ leaseMs: 500 }),
    /option "leaseMs" must be a whole number of milliseconds/,
  );
  assert.match(refusal({ leaseMs: 3_600_000 }), /option "leaseMs"/);
  assert.equal(resolveOptions({ leaseMs: 3000 }).leaseMs, 3000);
  assert.equal(resolveOptions({}).leaseMs, 10_000);
});

Deno.test("an export cap of no row or past 100,000 is refused by name; absent, 100,000", () => {
  assert.match(
    refusal({ exportCap: 0 }),
    /option "exportCap" must be a whole number from 1 to 100,000/,
  );
  assert.match(refusal({ exportCap: 100_001 }), /option "exportCap"/);
  assert.match(refusal({ exportCap: 2.5 }), /option "exportCap"/);
  assert.equal(resolveOptions({ exportCap: 500 }).exportCap, 500);
  assert.equal(resolveOptions({}).exportCap, 100_000);
});
