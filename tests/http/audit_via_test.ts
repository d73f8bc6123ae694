/**
 * `GET /audit?via=`: the entries an agent's MCP tool calls made (`mcp`), or
 * those of the API and the UI (`api`), apart; what the Activity page's
 * "Made through" filter asks.
 */

import assert from "node:assert/strict";
import { createBoard } from "../helpers/checked_board.ts";
import { auditEntries, callApi } from "../helpers/audit.ts";
import { withClient } from "../helpers/mcp_client.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";

Deno.test("GET /audit?via= keeps an agent's entries apart from the API's; another value is a 400 naming via", async () => {
  const source = createMemorySource();
  const board = createBoard(source, { mcp: { actions: true } });
  try {
    // Both are refused (no such job), and both are recorded: one over HTTP, one by an agent.
    const direct = await callApi(board, "POST", "/jobs/no-such-job/retry");
    await direct.body?.cancel();
    assert.equal(direct.status, 404);
    await withClient({ board }, {}, async (client) => {
      const result = await client.callTool({
        name: "post_jobs_jobId_retry",
        arguments: { jobId: "agent-job" },
      });
      assert.equal(result.isError, true);
    });
    const targets = async (query: string) =>
      (await auditEntries(board, query)).map(({ target, via }) => ({ target, via }));
    assert.deepEqual(await targets(""), [
      { target: "agent-job", via: "mcp" },
      { target: "no-such-job", via: undefined },
    ]);
    assert.deepEqual(await targets("?via=mcp"), [{ target: "agent-job", via: "mcp" }]);
    assert.deepEqual(await targets("?via=api"), [{ target: "no-such-job", via: undefined }]);
    const bad = await callApi(board, "GET", "/audit?via=cli");
    assert.equal(bad.status, 400);
    const body = await bad.json();
    assert.equal(body.code, "INVALID_PARAM");
    assert.equal(body.param, "via");
  } finally {
    await board.close();
    await source.close();
  }
});
