/**
 * Bulk actions: `POST /bulk` counts (`dryRun`) or starts an operation on
 * many jobs of a task; `GET /operations`, `GET /operations/{id}` and
 * `POST /operations/{id}/cancel` follow and stop it. Progress goes out on
 * the event stream as `bulk:progress`; the end is recorded in the audit
 * trail (`bulk.<action>`: what it did, what it skipped).
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import { type BulkOperation, MAX_BULK_IDS } from "../contract/bulk.ts";
import type { Context } from "hono";
import { BoardError, invalidParam } from "../errors.ts";
import { ANONYMOUS, type UserEnv } from "../auth/user.ts";
import { bodyOf, jsonBody, textField } from "./schema/body.ts";
import { countMatches, firstSlice, matchReader } from "../bulk/filter.ts";
import { bulkSelector, isFilterSelection } from "../bulk/selector.ts";
import {
  assertMayFilterBy,
  assertMaySeeOperation,
  filtersByPayload,
  mayReadPayloads,
} from "../auth/payload_access.ts";
import type { ApiDeps } from "./deps.ts";
import { apiRoute, apiRouter } from "./openapi.ts";
import { scanHolder } from "../scans/holder.ts";
import type { SessionEnv } from "../auth/session.ts";
import {
  BulkActionSchema,
  BulkOperationSchema,
  BulkPreviewSchema,
  BulkStartSchema,
} from "./schema/bulk.ts";

const tags = ["bulk"];

/**
 * Checked by `bulkSelector` rather than by zod: which states it takes depends
 * on the action, and its refusals name `selector.<field>`.
 */
const SelectorSchema = z.unknown().openapi({
  type: "object",
  description: `\`{ task, ids }\`: some jobs (1 to ${MAX_BULK_IDS} ids); \`{ task, state }\`: ` +
    "every job in a state the action acts on (retry: failed, cancelled, expired; cancel: " +
    "waiting, delayed, retrying, active; promote: delayed, retrying; delete: completed, " +
    "failed, cancelled, expired); or `{ task, state, filter }`: those of them matching a " +
    'filter, given as the search\'s query parameters (`{ "field": "error", "contains": ' +
    '"timeout" }`). A filter\'s dry run walks the whole range once to count its matches ' +
    "(a time range alone on a finished state is counted from the index).",
});

const startBulk = apiRoute({
  method: "post",
  path: "/bulk",
  audit: { action: "bulk.start", taskIn: "selector" },
  tags,
  summary: "Count (dryRun) or start an action on many jobs of a task",
  description: "The operation runs in steps of a batch each; `bulk:progress` events on " +
    "`GET /events` follow it, and its end is recorded in the audit trail.",
  request: {
    body: jsonBody(
      bodyOf({
        action: BulkActionSchema,
        selector: SelectorSchema,
        dryRun: z.boolean({
          error: (issue) => `must be true or false (got ${JSON.stringify(issue.input)})`,
        }).optional(),
        reason: textField(1000, "Why, recorded with each job cancelled (cancel only)"),
      }, { required: true }),
      { required: true },
    ),
  },
  ok: BulkPreviewSchema,
  okDescription: "dryRun: how many jobs the action would act on",
  accepted: BulkStartSchema,
  errors: ["TASK_NOT_FOUND", "INVALID_STATE"],
});

const OperationPath = z.object({ id: z.string().openapi({ description: "An operation's id" }) });

const listOperations = apiRoute({
  method: "get",
  path: "/operations",
  tags,
  summary: "The bulk operations any board on this store runs or ran lately",
  ok: z.array(BulkOperationSchema),
});

const getOperation = apiRoute({
  method: "get",
  path: "/operations/{id}",
  tags,
  summary: "One bulk operation",
  description: "403 `FORBIDDEN` (`param: payload.read`) for an operation filtered by data, " +
    "result or logs, to a user who may not read the task's payloads: `GET /operations` leaves " +
    "it out for them, and their event stream carries none of its `bulk:progress`.",
  request: { params: OperationPath },
  ok: BulkOperationSchema,
  errors: ["NOT_FOUND", "FORBIDDEN"],
});

const cancelOperation = apiRoute({
  method: "post",
  path: "/operations/{id}/cancel",
  audit: { action: "operation.cancel", target: "{id}" },
  tags,
  summary: "Stop a running bulk operation after its current step",
  request: { params: OperationPath, body: jsonBody(bodyOf({})) },
  ok: BulkStartSchema,
  errors: ["NOT_FOUND", "INVALID_STATE"],
});

function operationNotFound(id: string): BoardError {
  return new BoardError(
    "NOT_FOUND",
    `Operation "${id}" not found: no board on this store runs it, or it finished long enough ` +
      "ago to be forgotten",
  );
}

/** Routes `/bulk` and `/operations`. */
export function bulkRoutes(
  { source, operations, present, options, scans }: ApiDeps,
) {
  const maySee = async (c: Context<SessionEnv & UserEnv>, operation: BulkOperation) =>
    !filtersByPayload(operation.selection) || await mayReadPayloads(c, options, operation.task);
  return apiRouter<SessionEnv & UserEnv>()
    .openapi(startBulk, async (c) => {
      const body = c.req.valid("json");
      const { action, reason } = body;
      const selector = bulkSelector(body.selector, action, options.redact);
      if (reason !== undefined && action !== "cancel") {
        throw invalidParam("reason", "goes with the cancel action only");
      }
      if (!source.countBulk || !source.bulkStep) {
        throw new BoardError(
          "INVALID_STATE",
          "This board reaches taskora through the App's public API, which cannot act on many " +
            "jobs in atomic steps: bulk actions are off here",
        );
      }
      const { task } = selector;
      // A filter's count (a dry run's answer, an operation's total) would tell what the values hold.
      if (isFilterSelection(selector)) await assertMayFilterBy(c, options, selector.filter, task);
      const countBulk = source.countBulk.bind(source);
      // Counting a state may walk it (a filter's matches; the delayed set, for delayed and
      // retrying jobs): it holds one of the board's scan slots meanwhile.
      const holder = await scanHolder(c, options);
      const countState = (count: () => Promise<number>) =>
        "ids" in selector ? count() : scans.hold(count, holder);
      if (body.dryRun) {
        const count = await countState(() =>
          isFilterSelection(selector)
            ? countMatches(matchReader(source, present, selector), selector, c.req.raw.signal)
            : countBulk(action, selector)
        );
        return c.json({ ok: true as const, dryRun: true as const, task, action, count }, 200);
      }
      // A filter's operation walks its range: that is its total, known from the first slice
      // (whose read also finds an unknown task); the walk starts from that slice, not a second read.
      const first = isFilterSelection(selector)
        ? await firstSlice(matchReader(source, present, selector))
        : undefined;
      const matches = first?.matches;
      const total = first ? first.total : await countState(() => countBulk(action, selector));
      const operation = await operations.start({
        action,
        selector,
        matches,
        total,
        user: c.get("user") ?? ANONYMOUS,
        reason,
      });
      return c.json({ ok: true as const, task, operation }, 202);
    })
    .openapi(listOperations, async (c) => {
      const seen: BulkOperation[] = [];
      for (const operation of await operations.list()) {
        // What a payload filter found is the payloads' to tell: left out, as a search is refused.
        if (await maySee(c, operation)) seen.push(operation);
      }
      return c.json(seen, 200);
    })
    .openapi(getOperation, async (c) => {
      const { id } = c.req.valid("param");
      const operation = await operations.get(id);
      if (!operation) throw operationNotFound(id);
      await assertMaySeeOperation(c, options, operation);
      return c.json(operation, 200);
    })
    .openapi(cancelOperation, async (c) => {
      const { id } = c.req.valid("param");
      const asked = await operations.get(id);
      if (asked) await assertMaySeeOperation(c, options, asked);
      const operation = await operations.cancel(id);
      if (!operation) throw operationNotFound(id);
      return c.json({ ok: true as const, task: operation.task, operation }, 200);
    });
}
