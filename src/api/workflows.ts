/**
 * Workflow routes: the list, newest first, one workflow's graph with every
 * node's state, result and error, and cancelling a running one.
 *
 * @module
 */

import { Hono } from "hono";
import { decodeValue } from "../source/wire/decode.ts";
import { optionalString, readJsonObject } from "./body.ts";
import type { ApiDeps } from "./deps.ts";
import { pageParams, workflowStateParam } from "./params.ts";
import { workflowNotFound } from "../source/refusals.ts";

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
      const terminalTasks = workflow.graph.terminal.map((i) => workflow.nodes[i]?.taskName);
      return c.json({
        ...workflow,
        graph: {
          ...workflow.graph,
          nodes: workflow.graph.nodes.map(({ data, ...node }) =>
            data === undefined
              ? node
              : { ...node, data: present.data(decodeValue(data), node.taskName) }
          ),
        },
        nodes: workflow.nodes.map((node) => ({
          ...node,
          result: present.result(node.result, node.taskName),
        })),
        result: terminalTasks.length === 1
          ? present.result(workflow.result, terminalTasks[0])
          : present.value(workflow.result),
      });
    })
    .post("/workflows/:id/cancel", async (c) => {
      const id = c.req.param("id");
      const reason = optionalString(await readJsonObject(c, ["reason"]), "reason");
      return c.json({ ok: true, id, ...await source.cancelWorkflow(id, reason) });
    });
}
