/**
 * Workflow routes: the list, newest first, one workflow's graph with every
 * node's state, result and error (node data and results only to a user
 * allowed `payload.read` on the workflow), and cancelling a running one.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import { workflowNotFound } from "../source/refusals.ts";
import { bodyOf, jsonBody, textField } from "./schema/body.ts";
import type { ApiDeps } from "./deps.ts";
import type { SessionEnv } from "../auth/session.ts";
import type { UserEnv } from "../auth/user.ts";
import { mayReadPayloads, withoutWorkflowPayloads } from "../auth/payload_access.ts";
import { apiRoute, apiRouter } from "./openapi.ts";
import { TotalCountHeader } from "./schema/common.ts";
import { pageQuery, workflowStateQuery } from "./schema/params.ts";
import {
  WorkflowCancelSchema,
  WorkflowDetailSchema,
  WorkflowSummarySchema,
} from "./schema/queues.ts";

const tags = ["workflows"];

const IdPath = z.object({ id: z.string().openapi({ description: "A workflow's id" }) });

const listWorkflows = apiRoute({
  method: "get",
  path: "/workflows",
  tags,
  summary: "A page of workflows, newest first",
  request: { query: z.object({ ...pageQuery(), state: workflowStateQuery }) },
  ok: z.array(WorkflowSummarySchema),
  okHeaders: TotalCountHeader,
  errors: ["INVALID_PARAM"],
});

const getWorkflow = apiRoute({
  method: "get",
  path: "/workflows/{id}",
  tags,
  summary: "A workflow's graph with every node's state, result and error",
  request: { params: IdPath },
  ok: WorkflowDetailSchema,
  errors: ["WORKFLOW_NOT_FOUND"],
});

const cancel = apiRoute({
  method: "post",
  path: "/workflows/{id}/cancel",
  audit: { action: "workflow.cancel", target: "{id}" },
  tags,
  summary: "Cancel a running workflow: its pending nodes, and signal its active ones",
  request: { params: IdPath, body: jsonBody(bodyOf({ reason: textField() })) },
  ok: WorkflowCancelSchema,
  errors: ["WORKFLOW_NOT_FOUND", "INVALID_STATE"],
});

/** Routes under `/workflows`. */
export function workflowRoutes({ source, present, options }: ApiDeps) {
  return apiRouter<SessionEnv & UserEnv>()
    .openapi(listWorkflows, async (c) => {
      const { limit, offset, state } = c.req.valid("query");
      const page = await source.listWorkflows(offset, limit, state);
      c.header("X-Total-Count", String(page.total));
      return c.json(page.workflows, 200);
    })
    .openapi(getWorkflow, async (c) => {
      const { id } = c.req.valid("param");
      const workflow = await source.getWorkflow(id);
      if (!workflow) throw workflowNotFound(id);
      const shown = present.workflow(workflow);
      const readable = await mayReadPayloads(c, options, id);
      return c.json(readable ? shown : withoutWorkflowPayloads(shown), 200);
    })
    .openapi(cancel, async (c) => {
      const { id } = c.req.valid("param");
      const cancelled = await source.cancelWorkflow(id, c.req.valid("json").reason);
      return c.json({ ok: true as const, id, ...cancelled }, 200);
    });
}
