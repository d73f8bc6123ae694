/**
 * The schemas of JSON request bodies: {@link bodyOf} refuses a field the
 * route does not take or of the wrong type, naming it (400
 * `INVALID_PARAM`). That a mutation sends a JSON object no deeper than the
 * limit is checked before, by `jsonMutations` (`src/http/json_mutations.ts`).
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import { nounFor } from "../../contract/plural.ts";

/**
 * The schema of a JSON body holding only the fields of `shape`, whose
 * refusal of another field lists those it takes. Without `required`, an
 * empty body is `{}`.
 */
export function bodyOf<S extends z.core.$ZodLooseShape>(
  shape: S,
  { required = false }: { required?: boolean } = {},
) {
  const allowed = Object.keys(shape).join(", ") || "none";
  const object = z.strictObject(shape, {
    error: (issue) => {
      if (issue.code === "unrecognized_keys") {
        const fields = nounFor(issue.keys.length, "field");
        return `unknown ${fields} ${issue.keys.join(", ")} (allowed: ${allowed})`;
      }
      if (issue.code === "invalid_type") return `expected a JSON object with ${allowed}`;
    },
  });
  return required ? object : z.preprocess((body) => body ?? {}, object);
}

/** A JSON body's content, for a route's `request.body`. */
export function jsonBody<S extends z.ZodType>(schema: S, { required = false } = {}) {
  return { content: { "application/json": { schema } }, required };
}

/** An optional free-text field of at most `max` characters. */
export function textField(max = 1000, description?: string) {
  return z.string().max(max, { error: `must be at most ${max} characters` }).optional()
    .openapi(description ? { description } : {});
}
