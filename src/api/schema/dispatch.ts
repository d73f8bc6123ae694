/**
 * What a dispatch from the board made.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import type { DispatchResponse } from "../../contract/dispatch.ts";
import type { Same } from "./same.ts";

/** The answer of a dispatch. */
export const DispatchSchema = z.strictObject({
  ok: z.literal(true),
  task: z.string(),
  jobId: z.string(),
  created: z.boolean().openapi({
    description: "False when a dispatch with the same Idempotency-Key made the job already",
  }),
}).openapi("Dispatch");
true satisfies Same<z.output<typeof DispatchSchema>, DispatchResponse>;
