/**
 * The MCP tools and the API's routes are one list: every route of the
 * OpenAPI document has a tool or a stated reason, and every tool a route.
 */

import assert from "node:assert/strict";
import { createBoard } from "../../src/board.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import { ROUTES_WITHOUT_TOOL, routeTools, toolName } from "../../src/mcp/catalogue.ts";

async function apiDocument() {
  const board = createBoard(createMemorySource());
  try {
    const response = await board.fetch(new Request("http://localhost/board/api/openapi.json"));
    return await response.json();
  } finally {
    await board.close();
  }
}

function routesOf(document: { paths: Record<string, Record<string, unknown>> }): string[] {
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`)
  );
}

Deno.test("every route of the OpenAPI document has a tool or a reason, every tool a route", async () => {
  const document = await apiDocument();
  const routes = routesOf(document);
  const tools = routeTools(document);
  const byRoute = new Map(tools.map((tool) => [`${tool.method} ${tool.path}`, tool]));
  for (const route of routes) {
    assert.ok(byRoute.has(route) || route in ROUTES_WITHOUT_TOOL, `${route} has no tool`);
  }
  for (const route of [...byRoute.keys(), ...Object.keys(ROUTES_WITHOUT_TOOL)]) {
    assert.ok(routes.includes(route), `${route} is no route of the API`);
  }
  assert.equal(new Set(tools.map((tool) => tool.name)).size, tools.length, "tool names are unique");
});

Deno.test("a tool's input schema is its route's parameters and body", async () => {
  const tools = routeTools(await apiDocument());
  const jobs = tools.find((tool) => tool.name === toolName("get", "/tasks/{task}/jobs"))!;
  assert.deepEqual(jobs.inputSchema.required, ["task"]);
  assert.deepEqual(
    (jobs.inputSchema.properties as Record<string, { enum?: string[] }>).state.enum?.slice(0, 2),
    ["waiting", "active"],
  );
  const bulk = tools.find((tool) => tool.name === "post_bulk")!;
  const body = (bulk.inputSchema.properties as Record<string, Record<string, unknown>>).body;
  assert.equal(bulk.action, "bulk.start");
  // The document's component references point into the schema's own definitions.
  assert.ok(JSON.stringify(body).includes('"#/$defs/BulkAction"'));
  assert.ok((body.$defs as Record<string, unknown>).BulkAction);
  assert.ok(!JSON.stringify(tools).includes("#/components/"));
});
