/**
 * Bulk actions: `POST /bulk` counts (`dryRun`) or starts an operation on
 * many jobs of a task; `GET /operations`, `GET /operations/{id}` and
 * `POST /operations/{id}/cancel` follow and stop it. Progress goes out on
 * the event stream as `bulk:progress`; the end is recorded in the audit
 * trail (`bulk.<action>`: what it did, what it skipped).
 *
 * @module
 */

import { Hono } from "hono";
import type { BulkOperation, BulkPreviewResponse, BulkStartResponse } from "../contract/bulk.ts";
import { BoardError, invalidParam } from "../errors.ts";
import { ANONYMOUS, type UserEnv } from "../auth/user.ts";
import { optionalString, readJsonObject } from "./body.ts";
import { bulkAction, bulkSelector } from "./bulk_selector.ts";
import type { ApiDeps } from "./deps.ts";

function operationNotFound(id: string): BoardError {
  return new BoardError(
    "NOT_FOUND",
    `Operation "${id}" not found: this board does not run it, or it finished long enough ago ` +
      "to be forgotten",
  );
}

/** What an ended operation did, in words, for the audit trail. */
function summary(operation: BulkOperation): string {
  const { done, skipped, total, status } = operation;
  const how = status === "done"
    ? ""
    : ` (${status}${operation.error ? `: ${operation.error}` : ""})`;
  return `${done} of ${total} done, ${skipped} skipped${how}`;
}

/** Routes `/bulk` and `/operations`. */
export function bulkRoutes({ source, operations, events, audit }: ApiDeps): Hono<UserEnv> {
  return new Hono<UserEnv>()
    .post("/bulk", async (c) => {
      const body = await readJsonObject(c, ["action", "selector", "dryRun", "reason"], {
        required: true,
      });
      const action = bulkAction(body.action);
      const selector = bulkSelector(body.selector, action);
      if (body.dryRun !== undefined && typeof body.dryRun !== "boolean") {
        throw invalidParam("dryRun", `must be true or false (got ${JSON.stringify(body.dryRun)})`);
      }
      const reason = optionalString(body, "reason");
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
      const count = await source.countBulk(action, selector);
      const { task } = selector;
      if (body.dryRun) {
        return c.json(
          { ok: true, dryRun: true, task, action, count } satisfies BulkPreviewResponse,
        );
      }
      const operation = operations.start({
        source,
        action,
        selector,
        total: count,
        user: c.get("user") ?? ANONYMOUS,
        reason,
        onProgress: (progress) => events.publish("bulk:progress", progress, task),
        onFinish(finished) {
          // The steps write job events, but a delete writes none: reread the counts.
          events.invalidate(task);
          const failed = finished.status === "failed";
          audit.append({
            at: Date.now(),
            user: finished.user,
            action: `bulk.${finished.action}`,
            target: finished.id,
            task,
            count: finished.done,
            outcome: failed ? "error" : "ok",
            status: failed ? 500 : 200,
            code: finished.errorCode,
            detail: summary(finished),
          }).catch((error) =>
            console.error("queue-board: cannot record the audit entry", finished, error)
          );
        },
      });
      return c.json({ ok: true, task, operation } satisfies BulkStartResponse, 202);
    })
    .get("/operations", (c) => c.json(operations.list()))
    .get("/operations/:id", (c) => {
      const id = c.req.param("id");
      const operation = operations.get(id);
      if (!operation) throw operationNotFound(id);
      return c.json(operation);
    })
    .post("/operations/:id/cancel", async (c) => {
      const id = c.req.param("id");
      await readJsonObject(c, []);
      const operation = await operations.cancel(id);
      if (!operation) throw operationNotFound(id);
      return c.json({ ok: true, task: operation.task, operation });
    });
}
