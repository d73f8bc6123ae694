/**
 * Schemas of query and path parameters, whose refusals name the parameter
 * and what it allows (400 `INVALID_PARAM`, through `openapi.ts`'s hook).
 * An empty query parameter (`?state=`) counts as absent.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import { JOB_STATES, WORKFLOW_STATES } from "../../contract/states.ts";
import { MIN_ID_PREFIX } from "../../contract/job_lookup.ts";
import { MAX_JOB_ID_LENGTH } from "../../contract/jobs.ts";
import { IDEMPOTENCY_KEY_PATTERN, MAX_IDEMPOTENCY_KEY_LENGTH } from "../../source/trigger_id.ts";

/** The largest page a list endpoint serves. */
export const MAX_LIMIT = 1000;

/** A query parameter given once, or absent; empty counts as absent. */
const once = z.union([z.string(), z.array(z.string())], {
  error: (issue) => `must be given once (got ${JSON.stringify(issue.input)})`,
}).optional().transform((raw, ctx) => {
  if (Array.isArray(raw)) {
    ctx.issues.push({ code: "custom", input: raw, message: "must be given once" });
    return z.NEVER;
  }
  return raw === "" ? undefined : raw;
});

/**
 * A non-negative integer (path or query), at least `min` and at most `max`;
 * absent gives `fallback`.
 */
export function integerParam<const F extends number | undefined = undefined>(
  { fallback, min = 0, max = Number.MAX_SAFE_INTEGER, description }: {
    fallback?: F;
    min?: number;
    max?: number;
    description?: string;
  } = {},
) {
  return once.transform((raw, ctx): number | F => {
    if (raw === undefined) return fallback as F;
    const refuse = (message: string) => {
      ctx.issues.push({ code: "custom", input: raw, message });
      return z.NEVER;
    };
    if (!/^\d+$/.test(raw)) return refuse(`must be a non-negative integer (got "${raw}")`);
    const value = Number(raw);
    if (value > max) return refuse(`must be at most ${max} (got ${raw})`);
    if (value < min) return refuse(`must be at least ${min} (got ${raw})`);
    return value;
  }).openapi({
    type: "integer",
    minimum: min,
    ...max < Number.MAX_SAFE_INTEGER && { maximum: max },
    ...fallback !== undefined && { default: fallback },
    ...description && { description },
  });
}

/** `limit` (1–1000, `defaultLimit` when absent) and `offset` (default 0). */
export function pageQuery(defaultLimit = 20) {
  return {
    limit: integerParam({ fallback: defaultLimit, min: 1, max: MAX_LIMIT }),
    offset: integerParam({ fallback: 0 }),
  };
}

/** One of `values`, or absent. */
export function oneOfParam<const T extends readonly [string, ...string[]]>(values: T) {
  return once.pipe(oneOf(values).optional()).openapi({ type: "string", enum: [...values] });
}

/** A job state (default `waiting`). */
export const stateQuery = once.pipe(oneOf(JOB_STATES).default("waiting"))
  .openapi({ type: "string", enum: [...JOB_STATES], default: "waiting" });

/** An optional workflow state filter (absent: every state). */
export const workflowStateQuery = oneOfParam(WORKFLOW_STATES);

/** A string query parameter of at most `max` characters, or absent. */
export function textParam(max = 256, description?: string) {
  return once.pipe(
    z.string().max(max, { error: `must be at most ${max} characters` }).optional(),
  ).openapi({ type: "string", maxLength: max, ...description && { description } });
}

const badJobId = `must be 1 to ${MAX_JOB_ID_LENGTH} characters`;

/** A job id in the path. */
export const jobIdParam = z.string().min(1, { error: badJobId }).max(MAX_JOB_ID_LENGTH, {
  error: badJobId,
}).openapi({ description: "A job's id" });

const badIdPrefix =
  `must be the start of a job's id, ${MIN_ID_PREFIX} to ${MAX_JOB_ID_LENGTH} characters`;

/** The start of a job's id, required: what `GET /jobs?prefix=` looks up. */
export const idPrefixParam = once.pipe(
  z.string({ error: badIdPrefix }).min(MIN_ID_PREFIX, { error: badIdPrefix }).max(
    MAX_JOB_ID_LENGTH,
    { error: badIdPrefix },
  ),
).openapi({
  type: "string",
  minLength: MIN_ID_PREFIX,
  maxLength: MAX_JOB_ID_LENGTH,
  description: "The start of a job's id",
});

/** `{jobId}` alone. */
export const JobIdPath = z.object({ jobId: jobIdParam });

/** `{task}` alone. */
export const TaskPath = z.object({ task: z.string().openapi({ description: "A task's name" }) });

const badIdempotencyKey =
  `must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters without spaces`;

/** The optional `Idempotency-Key` header of a route that dispatches a job. */
export const IdempotencyHeaders = z.object({
  "idempotency-key": z.string().regex(IDEMPOTENCY_KEY_PATTERN, { error: badIdempotencyKey })
    .max(MAX_IDEMPOTENCY_KEY_LENGTH, { error: badIdempotencyKey }).optional().openapi({
      description: "One per operator click, resent on retry: the same key makes no second job",
    }),
});

/** `z.enum` whose refusal lists the values, as every list parameter's does. */
export function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, {
    error: (issue) => `must be one of ${values.join(", ")} (got ${JSON.stringify(issue.input)})`,
  });
}

/** `?task=`: one task's dead letters (absent: every task's). */
export const dlqTaskQuery = textParam(256, "Only this task's dead letters");

/** `?pattern=`: one error group (absent: every group); given, it must not be empty. */
export const patternQuery = z.string().min(1, { error: "must be a group's pattern, not empty" })
  .optional().openapi({ description: "Only the failures of this error group" });

/** An export's format: `csv` (the default) or `ndjson`. */
export const formatQuery = oneOfParam(["csv", "ndjson"]).openapi({
  description: "csv (default) or ndjson",
});
