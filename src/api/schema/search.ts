/**
 * The lines of the job search stream (`GET /tasks/{task}/jobs/search`).
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import type { SearchFrame } from "../../contract/job_filter.ts";
import { JobSchema } from "./common.ts";
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
