/**
 * Answers about what spans tasks: dead letters, schedules, workflows.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import type { DeadLettersResponse, DlqRetryResponse } from "../../contract/dlq.ts";
import type {
  ScheduleActionResponse,
  ScheduleRemoveResponse,
  ScheduleRunsPage,
  ScheduleView,
  TriggerResponse,
} from "../../contract/schedules.ts";
import { WORKFLOW_STATES } from "../../contract/states.ts";
import type {
  WorkflowCancelResponse,
  WorkflowDetail,
  WorkflowSummary,
} from "../../contract/workflows.ts";
import { AnyJson, JobSchema, JobStateSchema, Millis } from "./common.ts";
import { ReasonSchema } from "./diagnosis.ts";
import type { Same } from "../../same.ts";

/** A page of failed jobs and the failures grouped by error. */
export const DeadLettersSchema = z.strictObject({
  total: z.number().int(),
  jobs: z.array(JobSchema),
  groups: z.array(z.strictObject({
    pattern: z.string(),
    sample: z.string(),
    count: z.number().int(),
    tasks: z.array(z.string()),
    firstSeen: Millis,
    lastSeen: Millis,
    sampleJobIds: z.array(z.string()),
  })),
}).openapi("DeadLetters");
true satisfies Same<z.output<typeof DeadLettersSchema>, DeadLettersResponse>;

/** How many dead letters were retried. */
export const DlqRetrySchema = z.strictObject({ ok: z.literal(true), retried: z.number().int() })
  .openapi("DlqRetry");
true satisfies Same<z.output<typeof DlqRetrySchema>, DlqRetryResponse>;

/** A schedule, its next run and its last. */
export const ScheduleSchema = z.strictObject({
  name: z.string(),
  config: z.strictObject({
    task: z.string(),
    data: AnyJson.optional(),
    every: z.number().optional(),
    cron: z.string().optional(),
    timezone: z.string().optional(),
    onMissed: z.string().optional(),
    overlap: z.boolean().optional(),
  }),
  nextRun: Millis.nullable(),
  lastRun: Millis.nullable(),
  lastJobId: z.string().nullable(),
  lastRunStatus: JobStateSchema.nullable(),
  lastRunStatusAt: Millis.optional().openapi({
    description: "When a finished lastRunStatus was read (ms): a source may trust one a while " +
      "(Redis: a minute) rather than read it for each answer",
  }),
  paused: z.boolean(),
  declaredInCode: z.boolean().optional(),
  description: z.string().nullable().openapi({
    description: "How it runs in words, a cron's hours in its own time zone, named",
  }),
  upcomingRuns: z.array(Millis).openapi({
    description: "The next five runs, from nextRun on; none while paused",
  }),
  boardRuns: z.array(z.strictObject({
    jobId: z.string(),
    at: Millis,
    by: z.enum(["board", "scheduler"]).openapi({ description: "Always board here" }),
    state: JobStateSchema.nullable(),
    stateAt: Millis.optional().openapi({
      description: "When a finished state was read: a source may trust one a while (Redis: a " +
        "minute); absent where the state is read for each answer",
    }),
  })).openapi({
    description: "The runs the board dispatched (Run now), newest first, at most 10, with each " +
      "job's state now (null: gone); taskora itself keeps only the last run",
  }),
}).openapi("Schedule");
true satisfies Same<z.output<typeof ScheduleSchema>, ScheduleView>;

/** One page of a schedule's runs, the board's and the scheduler's, with their outcomes. */
export const ScheduleRunsSchema = z.strictObject({
  runs: z.array(z.strictObject({
    jobId: z.string(),
    at: Millis.openapi({ description: "When it was dispatched" }),
    by: z.enum(["board", "scheduler"]).openapi({
      description: "Who made it: the board (Run now) or taskora's scheduler",
    }),
    state: z.union([JobStateSchema, z.literal("unknown")]).openapi({
      description: "The job's state while taskora holds it, else the history's (archived), " +
        "else unknown",
    }),
    archived: z.boolean().openapi({ description: "Whether the state is the history's" }),
  })),
  total: z.number().int().openapi({ description: "How many runs are kept, at most 100" }),
}).openapi("ScheduleRuns");
true satisfies Same<z.output<typeof ScheduleRunsSchema>, ScheduleRunsPage>;

/** A schedule after a change. */
export const ScheduleActionSchema = z.strictObject({
  ok: z.literal(true),
  schedule: ScheduleSchema,
})
  .openapi("ScheduleAction");
true satisfies Same<z.output<typeof ScheduleActionSchema>, ScheduleActionResponse>;

/** The job a trigger made (or found, for a repeated idempotency key). */
export const TriggerSchema = z.strictObject({
  ok: z.literal(true),
  jobId: z.string(),
  created: z.boolean(),
  version: z.number().int().optional(),
  versionFrom: z.enum(["app", "recent-jobs"]).optional(),
  expireAtFrom: z.enum(["app", "not-set"]).optional(),
}).openapi("Trigger");
true satisfies Same<z.output<typeof TriggerSchema>, TriggerResponse>;

/** The schedule removed. */
export const ScheduleRemoveSchema = z.strictObject({ ok: z.literal(true), name: z.string() })
  .openapi("ScheduleRemove");
true satisfies Same<z.output<typeof ScheduleRemoveSchema>, ScheduleRemoveResponse>;

const workflowSummary = {
  id: z.string(),
  name: z.string().nullable(),
  state: z.enum(WORKFLOW_STATES),
  createdAt: Millis,
  nodeCount: z.number().int(),
  tasks: z.array(z.string()),
};

/** A workflow as lists show it. */
export const WorkflowSummarySchema = z.strictObject(workflowSummary).openapi("WorkflowSummary");
true satisfies Same<z.output<typeof WorkflowSummarySchema>, WorkflowSummary>;

/** A workflow: its graph and every node's state, result and error. */
export const WorkflowDetailSchema = z.strictObject({
  ...workflowSummary,
  graph: z.strictObject({
    nodes: z.array(z.strictObject({
      taskName: z.string(),
      deps: z.array(z.number().int()),
      jobId: z.string(),
      _v: z.number().int(),
      data: AnyJson.optional(),
    })),
    terminal: z.array(z.number().int()),
    name: z.string().optional(),
  }),
  nodes: z.array(z.strictObject({
    index: z.number().int(),
    taskName: z.string(),
    jobId: z.string(),
    deps: z.array(z.number().int()),
    state: z.string(),
    jobState: JobStateSchema.nullable(),
    result: AnyJson,
    error: z.string().nullable(),
    notStarted: ReasonSchema.nullable().openapi({
      description: "Why the node has no job yet: `workflowParents` (it waits for its unfinished " +
        "parents, each with its state) or `workflowEnded` (its workflow failed or was cancelled " +
        "first, so it never starts); null when it has a job or had one",
    }),
  })),
  result: AnyJson,
  error: z.string().nullable(),
}).openapi("WorkflowDetail");
true satisfies Same<z.output<typeof WorkflowDetailSchema>, WorkflowDetail>;

/** What a workflow cancel did. */
export const WorkflowCancelSchema = z.strictObject({
  ok: z.literal(true),
  id: z.string(),
  cancelled: z.number().int(),
  signalled: z.number().int(),
}).openapi("WorkflowCancel");
true satisfies Same<z.output<typeof WorkflowCancelSchema>, WorkflowCancelResponse>;
