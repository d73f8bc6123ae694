/**
 * `{basePath}/mcp` under session login, on a real Redis holding the taskora
 * fixture: an agent in a signed-in session, and one signing in with its
 * token (`mcp.tokens`), whose actions the trail records under its name. No
 * credentials, or a token no agent holds, is a 401; the token opens nothing
 * but the MCP endpoint.
 */

import assert from "node:assert/strict";
import { presetCan } from "../../src/auth/permissions.ts";
import { type Board, createBoard } from "../../src/board.ts";
import type { AuditEntry } from "../../src/contract/audit.ts";
import { loadFixture } from "../helpers/fixture.ts";
import { answerOf, textOf, toolNames, withClient } from "../helpers/mcp_client.ts";
import { startRedis } from "../helpers/redis_server.ts";
import { ADA_LOGIN, signInAda } from "../helpers/session_login.ts";
import { waitFor } from "../helpers/wait_for.ts";

const AGENT_TOKEN = "s3cret-agent-token";
/** `printf %s s3cret-agent-token | sha256sum` */
const AGENT_DIGEST = "ae30582fa821c0da8c83c781b4755829fb7f21bd861d07e69f745586c79ae2e2";

async function withSessionBoard(run: (board: Board) => Promise<void>): Promise<void> {
  const redis = await startRedis();
  await loadFixture(redis.url, { metricsAt: Date.now() });
  const board = createBoard(redis.url, {
    auth: ADA_LOGIN,
    // Ada (a viewer) may read the trail here, to see what the agent did.
    can: (user, action, target) => action === "audit.read" || presetCan(user, action, target),
    mcp: { actions: true, tokens: { [AGENT_DIGEST]: { name: "oncall-agent", role: "operator" } } },
  });
  try {
    await run(board);
  } finally {
    await board.close();
    await redis.stop();
  }
}

function postMcp(board: Board, headers: Record<string, string>): Promise<Response> {
  return Promise.resolve(board.fetch(
    new Request("http://board.test/board/mcp", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...headers,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    }),
  ));
}

Deno.test("under session login an agent in a session reads, and nobody else gets in", async () => {
  await withSessionBoard(async (board) => {
    const anonymous: Record<string, string>[] = [{}, {
      authorization: "Bearer not-an-agent-token",
    }];
    for (const headers of anonymous) {
      const refused = await postMcp(board, headers);
      assert.equal(refused.status, 401);
      assert.deepEqual(await refused.json(), { error: "Unauthorized" });
    }
    const cookie = await signInAda((request) => board.fetch(request));
    await withClient({ board }, { cookie }, async (client) => {
      // Ada has no role: a viewer, who may retry nothing.
      assert.ok(!(await toolNames(client)).includes("post_jobs_jobId_retry"));
      const overview = await client.callTool({ name: "get_overview", arguments: {} });
      assert.equal((answerOf(overview).tasks as unknown[]).length, 11);
    });
  });
});

Deno.test("an agent signed in by its token acts as its own board user", async () => {
  await withSessionBoard(async (board) => {
    const agent = { authorization: `Bearer ${AGENT_TOKEN}` };
    // The token is no credential of the API itself.
    const api = await board.fetch(
      new Request("http://board.test/board/api/overview", { headers: agent }),
    );
    assert.equal(api.status, 401);
    await api.body?.cancel();
    await withClient({ board }, agent, async (client) => {
      assert.ok((await toolNames(client)).includes("post_jobs_jobId_retry"));
      // The board's first read may be a 503 while its Redis client still connects on a loaded machine.
      const page = await waitFor(async () => {
        const answer = textOf(
          await client.callTool({
            name: "get_tasks_task_jobs",
            arguments: { task: "send-email", state: "failed", limit: 1 },
          }),
        );
        return answer.startsWith("HTTP 200\n") && answer;
      }, { what: "the agent's first page of failed jobs" });
      const [{ id: jobId }] = JSON.parse(page.split("\n").slice(1).join("\n"));
      const retry = await client.callTool({ name: "post_jobs_jobId_retry", arguments: { jobId } });
      assert.match(textOf(retry), /^HTTP 200\n/);
      const cookie = await signInAda((request) => board.fetch(request));
      const retries = async () => {
        const response = await board.fetch(
          new Request("http://board.test/board/api/audit?action=job.retry", {
            headers: { cookie },
          }),
        );
        return response.status === 200
          ? ((await response.json()).entries as AuditEntry[])
          : (await response.body?.cancel(), []);
      };
      await waitFor(
        async () => (await retries()).some((entry) => entry.outcome === "ok"),
        { what: "the agent's retry in the trail" },
      );
      assert.deepEqual(
        (await retries()).map(({ user, target, status, via }) => ({ user, target, status, via })),
        [{ user: "oncall-agent", target: jobId, status: 200, via: "mcp" }],
      );
    });
  });
});
