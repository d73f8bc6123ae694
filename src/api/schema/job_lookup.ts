/**
 * The answer of `GET /jobs?prefix=`: jobs of every task whose id starts with
 * the prefix.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import type { JobLookup } from "../../contract/job_lookup.ts";
import { JobStateSchema } from "./common.ts";
import type { Same } from "../../same.ts";

/** Jobs whose id starts with the prefix, and whether more do. */
export const JobLookupSchema = z.strictObject({
  jobs: z.array(z.strictObject({
    id: z.string(),
    task: z.string(),
    state: JobStateSchema,
    archived: z.literal(true).optional().openapi({
      description: "Taskora no longer holds it: found in the board's history",
    }),
  })),
  more: z.boolean().openapi({
    description: "More jobs match than are listed: more of the id narrows them",
  }),
}).openapi("JobLookup");
true satisfies Same<z.output<typeof JobLookupSchema>, JobLookup>;
