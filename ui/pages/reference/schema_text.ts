/**
 * A JSON Schema as one short line of TypeScript-like text: `string | null`,
 * `Job[]`, `{ ok: true, retried: integer }`. Named schemas stay names (the
 * page lists them once); nesting past {@link MAX_DEPTH} is `…`, so a
 * document of any shape renders in bounded work.
 *
 * @module
 */
import { countOf } from "../../../src/contract/plural.ts";
import type { Schema } from "./types.ts";

/** Levels of inline objects, arrays and unions written out. */
export const MAX_DEPTH = 3;

/** The name a `$ref` points at: `#/components/schemas/Job` → `Job`. */
export function refName(ref: string): string {
  return ref.slice(ref.lastIndexOf("/") + 1);
}

function union(parts: string[]): string {
  return [...new Set(parts)].join(" | ");
}

/** The schema as text. */
export function schemaText(schema: Schema | boolean | undefined, depth = 0): string {
  if (schema === undefined || schema === true) return "any";
  if (schema === false) return "never";
  if (schema.$ref) return refName(schema.$ref);
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return union(schema.enum.map((value) => JSON.stringify(value)));
  if (depth >= MAX_DEPTH) return "…";
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return union(alternatives.map((part) => schemaText(part, depth + 1)));
  if (schema.allOf) return schema.allOf.map((part) => schemaText(part, depth + 1)).join(" & ");
  const types = [schema.type ?? []].flat();
  if (types.length === 0) return schema.properties ? objectText(schema, depth) : "any";
  return union(types.map((type) => {
    if (type === "array") {
      const item = schemaText(schema.items, depth + 1);
      return / \| /.test(item) ? `(${item})[]` : `${item}[]`;
    }
    return type === "object" ? objectText(schema, depth) : type;
  }));
}

function objectText(schema: Schema, depth: number): string {
  const fields = Object.entries(schema.properties ?? {}).map(([name, field]) =>
    `${name}${schema.required?.includes(name) ? "" : "?"}: ${schemaText(field, depth + 1)}`
  );
  const extra = schema.additionalProperties;
  if (extra !== undefined && extra !== false) {
    const key = schema.propertyNames ? schemaText(schema.propertyNames, depth + 1) : "string";
    fields.push(`[key: ${key}]: ${schemaText(extra, depth + 1)}`);
  }
  return fields.length === 0 ? "{}" : `{ ${fields.join(", ")} }`;
}

/** What a parameter or field allows beside its type: default, bounds, pattern. */
export function constraintsText(schema: Schema | undefined): string {
  if (!schema) return "";
  const notes = [
    schema.default !== undefined && `default ${JSON.stringify(schema.default)}`,
    schema.minimum !== undefined && `≥ ${schema.minimum}`,
    schema.maximum !== undefined && `≤ ${schema.maximum}`,
    schema.maxLength !== undefined && `at most ${countOf(schema.maxLength, "character")}`,
    schema.pattern !== undefined && `matches ${schema.pattern}`,
  ];
  return notes.filter(Boolean).join(", ");
}
