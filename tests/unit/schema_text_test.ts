/**
 * `schemaText()`: the API reference writes a JSON Schema as one line of
 * TypeScript-like text, names for named schemas, and stops nesting at a
 * bound whatever the document holds.
 */

import assert from "node:assert/strict";
import { constraintsText, MAX_DEPTH, schemaText } from "../../ui/pages/reference/schema_text.ts";
import type { Schema } from "../../ui/pages/reference/types.ts";

Deno.test("schemaText() writes types, nullables, enums, arrays and named schemas", () => {
  assert.equal(schemaText({ type: ["string", "null"] }), "string | null");
  assert.equal(schemaText({ enum: ["csv", "ndjson"] }), '"csv" | "ndjson"');
  assert.equal(schemaText({ type: "array", items: { $ref: "#/components/schemas/Job" } }), "Job[]");
  assert.equal(
    schemaText({ type: "array", items: { anyOf: [{ type: "string" }, { type: "number" }] } }),
    "(string | number)[]",
  );
  assert.equal(schemaText(undefined), "any");
});

Deno.test("schemaText() writes objects with their optional fields and keyed maps", () => {
  assert.equal(
    schemaText({
      type: "object",
      properties: { ok: { const: true }, reason: { type: "string" } },
      required: ["ok"],
    }),
    "{ ok: true, reason?: string }",
  );
  assert.equal(
    schemaText({ type: "object", additionalProperties: { type: "integer" } }),
    "{ [key: string]: integer }",
  );
});

Deno.test("schemaText() stops at MAX_DEPTH levels, however deep the schema", () => {
  let schema: Schema = { type: "string" };
  for (let i = 0; i < 10_000; i++) schema = { type: "array", items: schema };
  const text = schemaText(schema);
  assert.equal(text, `…${"[]".repeat(MAX_DEPTH)}`);
});

Deno.test("constraintsText() names the default and bounds", () => {
  assert.equal(
    constraintsText({ type: "integer", minimum: 1, maximum: 1000, default: 20 }),
    "default 20, ≥ 1, ≤ 1000",
  );
  assert.equal(constraintsText(undefined), "");
});

Deno.test("constraintsText() agrees a length with its noun", () => {
  assert.equal(constraintsText({ type: "string", maxLength: 1 }), "at most 1 character");
  assert.equal(constraintsText({ type: "string", maxLength: 256 }), "at most 256 characters");
});
