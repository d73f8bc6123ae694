/**
 * What a dispatch from the board made.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import type { DispatchResponse } from "../../contract/dispatch.ts";
import type { Same } from "../../same.ts";

/** The answer of a dispatch. */
export const DispatchSchema = z.strictObject({
  ok: z.literal(true),
  task: z.string(),
  jobId: z.string(),
  created: z.boolean().openapi({
    description: "False when a dispatch with the same Idempotency-Key made the job already",
  }),
  collect: z.boolean().openapi({
    description: "True for a collect task: the data joined the buffer of its collect key, and " +
      "`jobId` is the buffer's flush job, which the next item on the key replaces until the " +
      "buffer flushes",
  }),
}).openapi("Dispatch");
true satisfies Same<z.output<typeof DispatchSchema>, DispatchResponse>;
