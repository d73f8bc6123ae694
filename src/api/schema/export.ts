/**
 * The documented answer of every export route: a file as CSV or NDJSON.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";

/**
 * The documented answer of every export route: a file in either format
 * (`csv` says what its lines are; `ndjson` is a line's schema, described),
 * `what` it holds, the cap in `X-Export-Cap` and any `headers` beside.
 */
export function exportAnswer(
  { csv, ndjson, what, headers }: {
    csv: string;
    ndjson: z.ZodType;
    what: string;
    headers?: Record<string, z.ZodString>;
  },
) {
  return {
    ok: {
      "text/csv": { schema: z.string().openapi({ description: csv }) },
      "application/x-ndjson": { schema: ndjson },
    },
    okDescription: `${what} as a download; a cut or failed export ends with a line that says so`,
    okHeaders: z.object({
      "X-Export-Cap": z.string().openapi({ description: "Most rows an export writes" }),
      ...headers,
    }),
  };
}
