/**
 * A workflow node whose job does not exist yet, with real taskora workflows
 * (`chain`) on each source: the App on Redis, a board on the Redis URL, the
 * App on taskora's memory adapter. `GET /workflows/{id}` says why each such
 * node has not started: it waits for its parents, named with their states,
 * or its workflow failed or was cancelled first, so it never will.
 */

import assert from "node:assert/strict";
import { waitFor } from "../helpers/wait_for.ts";
import { type AppWorld, steerable, taskOf, withApp } from "./harness.ts";

// deno-lint-ignore no-explicit-any
type Any = any;

/** Dispatches `chain(...signatures)` and answers its workflow id. */
async function dispatchChain(world: AppWorld, ...names: string[]): Promise<string> {
  const { chain } = await import("../../../shared/taskora/taskora.js");
  const flow = chain(...names.map((name, i) => taskOf(world.app, name).s(i === 0 ? {} : undefined)))
    .dispatch();
  await flow;
  return flow.workflowId ?? flow.id;
}

/** The workflow once `ready` holds for it. */
function workflowWhen(world: AppWorld, id: string, ready: (body: Any) => boolean): Promise<Any> {
  return waitFor(async () => {
    const { status, body } = await world.get(`/workflows/${id}`);
    return status === 200 && ready(body) ? body : undefined;
  }, { what: `workflow ${id}` });
}

const sources = [
  ["redis", "app"],
  ["redis", "url"],
  ["memory", "app"],
] as const;

for (const [kind, boardOn] of sources) {
  Deno.test(`${kind} (board on the ${boardOn}): a node waiting for its parents names each with its state, and says it never starts once the workflow is cancelled`, async () => {
    await withApp(kind, steerable, async (world) => {
      const id = await dispatchChain(world, "slow", "double", "double");
      const running = await workflowWhen(world, id, (body) => body.nodes[0].jobState === "active");
      assert.deepEqual(running.nodes.map((node: Any) => node.notStarted), [
        null,
        {
          code: "workflowParents",
          summary: "it starts once its parent nodes complete: #0 slow (active)",
          evidence: { parents: ["#0 slow: active"] },
        },
        {
          code: "workflowParents",
          summary: "it starts once its parent nodes complete: #1 double (pending)",
          evidence: { parents: ["#1 double: pending"] },
        },
      ]);
      assert.equal((await world.send(`/workflows/${id}/cancel`)).status, 200);
      const cancelled = await workflowWhen(world, id, (body) => body.state === "cancelled");
      for (const node of cancelled.nodes.slice(1)) {
        assert.deepEqual(node.notStarted, {
          code: "workflowEnded",
          summary: "its workflow was cancelled before its parent nodes completed: " +
            "it will never start",
          evidence: { workflowState: "cancelled" },
        });
      }
    }, { boardOn });
  });

  Deno.test(`${kind} (board on the ${boardOn}): a node after a failed one says where its workflow failed`, async () => {
    await withApp(kind, steerable, async (world) => {
      const id = await dispatchChain(world, "flaky", "double");
      const failed = await workflowWhen(world, id, (body) => body.state === "failed");
      assert.equal(failed.nodes[0].notStarted, null, "the failed node ran");
      assert.deepEqual(failed.nodes[1].notStarted, {
        code: "workflowEnded",
        summary: "its workflow failed at #0 flaky before its parent nodes completed: " +
          "it will never start",
        evidence: { workflowState: "failed", failedAt: ["#0 flaky"] },
      });
    }, { boardOn });
  });
}
