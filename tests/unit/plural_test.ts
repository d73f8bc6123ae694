import assert from "node:assert/strict";
import { countOf, nounFor } from "../../src/contract/plural.ts";

Deno.test("nounFor() picks the form Intl.PluralRules names for the count", () => {
  assert.equal(nounFor(1, "job"), "job");
  assert.equal(nounFor(0, "job"), "jobs");
  assert.equal(nounFor(2, "job"), "jobs");
  assert.equal(nounFor(1.5, "job"), "jobs");
  assert.equal(nounFor(1, "entry", "entries"), "entry");
  assert.equal(nounFor(7, "entry", "entries"), "entries");
});

Deno.test("countOf() writes the count as asked, then the agreeing noun", () => {
  assert.equal(countOf(1, "job"), "1 job");
  assert.equal(countOf(12_000, "job", undefined, (n) => n.toLocaleString("en-US")), "12,000 jobs");
});
