/**
 * Workflow routes: the list, newest first, one workflow's graph with every
 * node's state, result and error, and cancelling a running one.
 *
 * @module
 */

import { Hono } from "hono";
import type { WorkflowCancelResponse } from "../contract/workflows.ts";
import { workflowNotFound } from "../source/refusals.ts";
import { optionalString, readJsonObject } from "./body.ts";
import type { ApiDeps } from "./deps.ts";
import { pageParams, workflowStateParam } from "./params.ts";

/** Routes under `/workflows`. */
export function workflowRoutes({ source, present }: ApiDeps): Hono {
  return new Hono()
    .get("/workflows", async (c) => {
      const { limit, offset } = pageParams((name) => c.req.query(name));
      const state = workflowStateParam(c.req.query("state"));
      const page = await source.listWorkflows(offset, limit, state);
      c.header("X-Total-Count", String(page.total));
      return c.json(page.workflows);
    })
    .get("/workflows/:id", async (c) => {
      const id = c.req.param("id");
      const workflow = await source.getWorkflow(id);
      if (!workflow) throw workflowNotFound(id);
      return c.json(present.workflow(workflow));
    })
    .post("/workflows/:id/cancel", async (c) => {
      const id = c.req.param("id");
      const reason = optionalString(await readJsonObject(c, ["reason"]), "reason");
      const cancelled = await source.cancelWorkflow(id, reason);
      return c.json({ ok: true, id, ...cancelled } satisfies WorkflowCancelResponse);
    });
}
