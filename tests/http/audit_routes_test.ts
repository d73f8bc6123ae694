/**
 * One declaration drives a route's validation, its document and its audit
 * entry: every route that changes something names its action in its
 * `apiRoute({ audit })`, the document shows it (`x-audit`), and a request
 * to it is recorded under that action, on the target the declaration names.
 */

import assert from "node:assert/strict";
import { changedNothing } from "../../src/audit/record.ts";
import { ROUTE_ACTIONS } from "../../src/contract/actions.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import { createBoard } from "../helpers/checked_board.ts";
import { auditEntries, callApi } from "../helpers/audit.ts";

interface Operation {
  "x-audit"?: { action: string; target?: string; task?: string };
}

/** The document's routes that are no read: method, path and what they declare. */
async function mutationsOf(board: { fetch(request: Request): Promise<Response> | Response }) {
  const response = await callApi(board, "GET", "/openapi.json");
  const document = await response.json() as { paths: Record<string, Record<string, Operation>> };
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations).filter(([method]) => method !== "get").map((
      [method, operation],
    ) => ({
      method: method.toUpperCase(),
      path,
      audit: operation["x-audit"],
    }))
  );
}

Deno.test("every route that changes something declares its action and is recorded under it", async () => {
  const board = createBoard(createMemorySource());
  try {
    const mutations = await mutationsOf(board);
    assert.ok(mutations.length >= 18, `only ${mutations.length} mutation routes in the document`);
    for (const { method, path, audit } of mutations) {
      assert.ok(audit, `${method} ${path} declares no audit action`);
      // Every path parameter is "p": whatever the route answers, the request is recorded,
      // unless its answer says it changed nothing (a retry-all that found no job).
      const [before] = await auditEntries(board, "?limit=1");
      const response = await callApi(board, method, path.replaceAll(/{\w+}/g, "p"));
      const [newest] = await auditEntries(board, "?limit=1");
      if (response.ok && changedNothing(await response.json())) {
        assert.equal(newest?.id, before?.id, `${method} ${path} changed nothing: no entry`);
        continue;
      }
      const target = (audit.target ?? audit.task ?? "*").replace(/^{\w+}$/, "p");
      assert.deepEqual(
        [newest?.action, newest?.target, newest?.task],
        [audit.action, target, audit.task === undefined ? newest?.task : "p"],
        `${method} ${path}`,
      );
    }
    assert.deepEqual(
      [...new Set(mutations.map(({ audit }) => audit!.action))].sort(),
      [...ROUTE_ACTIONS].sort(),
      "every action a route may record is declared by one",
    );
  } finally {
    await board.close();
  }
});
