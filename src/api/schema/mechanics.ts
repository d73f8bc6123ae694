/**
 * One step of a scan for a task's mechanism keys.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import {
  MECHANICS_SCAN_CALLS,
  MECHANICS_STEP_ENTRIES,
  type MechanicsResponse,
} from "../../contract/mechanics.ts";
import { Millis } from "./common.ts";
import type { Same } from "../../same.ts";

const key = z.string().openapi({ description: "The key the dispatches named" });
const id = z.string().openapi({
  description: "The same for the same key on every step of every board sharing the session " +
    "secret (an HMAC of the key): count a key SCAN returned twice once",
});

const EntrySchema = z.union([
  z.strictObject({ kind: z.literal("concurrency"), id, key, count: z.number().int() }),
  z.strictObject({
    kind: z.literal("throttle"),
    id,
    key,
    count: z.number().int(),
    resetsInMs: z.number().nullable(),
  }),
  z.strictObject({
    kind: z.literal("debounce"),
    id,
    key,
    jobId: z.string().nullable(),
    runAt: Millis.nullable(),
  }),
  z.strictObject({
    kind: z.literal("dedup"),
    id,
    key,
    jobId: z.string().nullable(),
    state: z.string().nullable(),
  }),
  z.strictObject({
    kind: z.literal("collect"),
    id,
    key,
    size: z.number().int(),
    firstAt: Millis.nullable(),
    lastAt: Millis.nullable(),
    flushJobId: z.string().nullable(),
    flushAt: Millis.nullable(),
  }),
]);

/** One step of a task's mechanics scan, when the source keeps such keys. */
export const MechanicsSchema = z.union([
  z.strictObject({
    task: z.string(),
    readAt: Millis,
    known: z.literal(true),
    entries: z.array(EntrySchema).openapi({
      description: "Keys of mechanisms found by this step, with their values: `conc:<key>` " +
        "(jobs of the concurrency key running), `throttle:<key>` (dispatches counted in the " +
        "window; its max is the dispatch's option, kept nowhere), `debounce:<key>` (the " +
        "pending job a later dispatch replaces), `dedup:<key>` (the job later dispatches fold " +
        "into), `collect:<key>` (items buffered, the flush job)",
    }),
    scanCalls: z.number().int().openapi({
      description: `SCAN calls made, each over about 1,000 keys of the keyspace (at most ` +
        `${MECHANICS_SCAN_CALLS}; fewer once ${MECHANICS_STEP_ENTRIES} keys were found)`,
    }),
    cursor: z.string().nullable().openapi({
      description: "Pass it as `cursor` for the next step; null once the keyspace is done",
    }),
  }),
  z.strictObject({
    task: z.string(),
    readAt: Millis,
    known: z.literal(false),
    reason: z.string(),
  }),
]).openapi("Mechanics");
true satisfies Same<z.output<typeof MechanicsSchema>, MechanicsResponse>;
