/**
 * Answers about the board and its store: config, throughput, the migration
 * lock, liveness (job locks, stalled jobs, scheduler leader) and the audit
 * trail.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import { AUDIT_OUTCOMES, type AuditResponse } from "../../contract/audit.ts";
import type { ConfigResponse } from "../../contract/config.ts";
import {
  type SchedulerLeadershipResponse,
  STALLED_SCAN,
  type TaskLivenessResponse,
} from "../../contract/liveness.ts";
import type { MigrationLockResponse } from "../../contract/migration_lock.ts";
import type { ThroughputBucket } from "../../contract/throughput.ts";
import { Millis } from "./common.ts";
import type { Same } from "../../same.ts";

/** What the UI needs to know about the board. */
export const ConfigSchema = z.strictObject({
  title: z.string(),
  logo: z.string().nullable(),
  favicon: z.string().nullable(),
  theme: z.enum(["light", "dark", "auto"]),
  readOnly: z.boolean(),
  editableData: z.boolean(),
  refreshInterval: z.number(),
  authEnabled: z.boolean(),
  basePath: z.string(),
  history: z.boolean().openapi({
    description: "Whether the board records a job history (GET /history/... answer 404 without)",
  }),
  exportCap: z.number().int().openapi({
    description: "The most rows an export holds (the exportCap option; X-Export-Cap on each)",
  }),
  allowed: z.array(z.string()).openapi({
    description: "The actions the current user may do, asked with target * (sessions.revoke " +
      "with mine): the UI shows no control for another. A can that decides per target may " +
      "still refuse one with 403 FORBIDDEN.",
  }),
  user: z.strictObject({ name: z.string(), role: z.string().nullable() }).nullable().openapi({
    description: "Who is signed in, with their preset role (null under a custom can); " +
      "null when no login names anyone.",
  }),
  roleNeeded: z.record(z.string(), z.string()).openapi({
    description: "For each action the user may not do that a preset role may, the least such " +
      "role; empty under a custom can.",
  }),
}).openapi("Config");
true satisfies Same<z.output<typeof ConfigSchema>, ConfigResponse>;

/** Finished jobs per bucket, oldest first. */
export const ThroughputSchema = z.array(z.strictObject({
  timestamp: Millis,
  completed: z.number().int(),
  failed: z.number().int(),
})).openapi("Throughput");
true satisfies Same<z.output<typeof ThroughputSchema>, ThroughputBucket[]>;

/** Whether taskora's migration lock is held, and what it says. */
export const MigrationLockSchema = z.strictObject({
  held: z.boolean(),
  lock: z.strictObject({
    by: z.string().nullable(),
    reason: z.string().nullable(),
    startedAt: Millis.nullable(),
    expectedDurationMs: z.number().nullable(),
    targetWireVersion: z.number().nullable(),
    expiresInMs: z.number().nullable(),
    raw: z.string().optional(),
  }).nullable(),
}).openapi("MigrationLock");
true satisfies Same<z.output<typeof MigrationLockSchema>, MigrationLockResponse>;

const unknown = { known: z.literal(false), reason: z.string() };

/** The locks of the named jobs and the task's stalled jobs, when the source reads them. */
export const TaskLivenessSchema = z.union([
  z.strictObject({
    task: z.string(),
    readAt: Millis,
    known: z.literal(true),
    locks: z.array(z.strictObject({
      id: z.string(),
      token: z.string().nullable(),
      ttlMs: z.number().nullable(),
      inStalledSet: z.boolean(),
    })),
    stalled: z.strictObject({
      ids: z.array(z.string()),
      total: z.number().int(),
      checked: z.number().int(),
    }).openapi({
      description:
        `The active jobs without a lock, among the ${STALLED_SCAN} claimed longest ago ` +
        "(`checked`: how many were looked at): no worker runs them",
    }),
  }),
  z.strictObject({ task: z.string(), readAt: Millis, ...unknown }),
]).openapi("TaskLiveness");
true satisfies Same<z.output<typeof TaskLivenessSchema>, TaskLivenessResponse>;

/** The scheduler leader lock, when the source reads it. */
export const SchedulerSchema = z.union([
  z.strictObject({
    readAt: Millis,
    known: z.literal(true),
    leader: z.strictObject({ token: z.string(), ttlMs: z.number().nullable() }).nullable(),
  }),
  z.strictObject({ readAt: Millis, ...unknown }),
]).openapi("SchedulerLeadership");
true satisfies Same<z.output<typeof SchedulerSchema>, SchedulerLeadershipResponse>;

/** One entry of the audit trail. */
export const AuditEntrySchema = z.strictObject({
  id: z.string(),
  at: Millis,
  user: z.string(),
  action: z.string(),
  target: z.string(),
  task: z.string().nullable(),
  count: z.number().int().nullable(),
  outcome: z.enum(AUDIT_OUTCOMES),
  status: z.number().int(),
  code: z.string().nullable(),
  detail: z.string().nullable(),
  late: Millis.optional().openapi({
    description: "Written late (the store was unreachable): when it happened; `at` is when written",
  }),
  dropped: z.number().int().optional().openapi({
    description: "Refusals of the same client not recorded since its last one (rate limit)",
  }),
  via: z.literal("mcp").optional().openapi({
    description: "`mcp`: an agent's tool call of `{basePath}/mcp` made the request",
  }),
}).openapi("AuditEntry");

/** A page of the audit trail, newest first, and the cursor of the next. */
export const AuditSchema = z.strictObject({
  entries: z.array(AuditEntrySchema),
  next: z.string().nullable(),
  shared: z.boolean(),
  maxEntries: z.number().int(),
  maxAgeMs: z.number().int().openapi({ description: "How long an entry is kept, ms" }),
  actions: z.array(z.string()).readonly(),
}).openapi("Audit");
true satisfies Same<z.output<typeof AuditSchema>, AuditResponse>;
