/**
 * The lines of the job search stream (`GET /tasks/{task}/jobs/search`).
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import {
  MAX_ID_PREFIX_CHARS,
  MAX_NEEDLE_CHARS,
  SEARCH_FIELDS,
  type SearchFrame,
} from "../../contract/job_filter.ts";
import { JobSchema } from "./common.ts";
import { textParam } from "./params.ts";
import type { Same } from "../../same.ts";

const progress = {
  scanned: z.number().int().openapi({ description: "Jobs looked at since the search began" }),
  total: z.number().int().openapi({ description: "Jobs in the scanned range" }),
  found: z.number().int().openapi({ description: "Matches sent by this request" }),
  skipped: z.number().int().openapi({ description: "Jobs whose field was too big to search" }),
};

/** One NDJSON line: progress, a match, the end (with the cursor that continues), or an error. */
export const SearchFrameSchema = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("progress"), ...progress }),
  z.strictObject({ type: z.literal("match"), job: JobSchema }),
  z.strictObject({
    type: z.literal("end"),
    cursor: z.string().nullable().openapi({ description: "Continues the search; null when done" }),
    reason: z.enum(["page", "done"]),
    ...progress,
  }),
  z.strictObject({ type: z.literal("error"), error: z.string(), code: z.string() }),
]).openapi("SearchFrame");
true satisfies Same<z.output<typeof SearchFrameSchema>, SearchFrame>;

const time = (bound: string) =>
  textParam(
    64,
    `${bound}, inclusive: epoch ms, or an ISO 8601 date or date-time with a zone. On the finish ` +
      "time for completed, failed, cancelled and expired jobs, else on the created time",
  );

/** The filter's query parameters (all optional), as the search and its export take them. */
export const filterQuery = {
  from: time("Earliest time"),
  to: time("Latest time"),
  id: textParam(MAX_ID_PREFIX_CHARS, "The start of the job id"),
  field: textParam(16, `The payload looked into: ${SEARCH_FIELDS.join(", ")}`),
  contains: textParam(MAX_NEEDLE_CHARS, "A substring of the field's text"),
  path: textParam(MAX_NEEDLE_CHARS, "A dot path into the field (`user.id`, `items.0.sku`)"),
  // Not textParam: an empty value is a value (`value=` finds the empty string).
  value: z.string().max(MAX_NEEDLE_CHARS, {
    error: `must be at most ${MAX_NEEDLE_CHARS} characters`,
  }).optional().openapi({ description: "The value at `path` (`value=`: the empty string)" }),
};
