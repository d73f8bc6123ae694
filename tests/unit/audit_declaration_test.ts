/**
 * A route that changes something must name its audit action: `deno check`
 * fails (an unused `@ts-expect-error`) the day `apiRoute` accepts one
 * without, or with an action, target or task its path cannot give.
 */

import assert from "node:assert/strict";
import { z } from "@hono/zod-openapi";
import { apiRoute } from "../../src/api/openapi.ts";

const ok = z.object({});

Deno.test("a mutation route declares its action; the document carries it", () => {
  const route = apiRoute({
    method: "post",
    path: "/jobs/{jobId}/poke",
    summary: "Poke a job",
    ok,
    audit: { action: "job.retry", target: "{jobId}" },
  });
  assert.deepEqual(route["x-audit"], { action: "job.retry", target: "{jobId}" });
  const read = apiRoute({ method: "get", path: "/jobs/{jobId}/pokes", summary: "Pokes", ok });
  assert.equal("x-audit" in read, false);
});

Deno.test("a mutation route without a valid audit declaration does not type-check", () => {
  // @ts-expect-error a POST without `audit`
  apiRoute({ method: "post", path: "/jobs/{jobId}/poke", summary: "Poke", ok });
  // @ts-expect-error a DELETE without `audit`
  apiRoute({ method: "delete", path: "/jobs/{jobId}", summary: "Remove", ok });
  apiRoute({
    method: "post",
    path: "/jobs/{jobId}/poke",
    summary: "Poke",
    ok,
    // @ts-expect-error an action no trail knows
    audit: { action: "job.poke", target: "{jobId}" },
  });
  apiRoute({
    method: "post",
    path: "/jobs/{jobId}/poke",
    summary: "Poke",
    ok,
    // @ts-expect-error a target the path does not name
    audit: { action: "job.retry", target: "{id}" },
  });
  apiRoute({
    method: "post",
    path: "/tasks/{task}/poke",
    summary: "Poke",
    ok,
    // @ts-expect-error a task that is no path parameter
    audit: { action: "task.clean", task: "poke" },
  });
  apiRoute({
    method: "get",
    path: "/jobs",
    summary: "Jobs",
    ok,
    // @ts-expect-error a read records nothing
    audit: { action: "job.retry" },
  });
});
