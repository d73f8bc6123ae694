/**
 * `{basePath}/mcp` with the MCP SDK's own client, on a board over a real
 * Redis holding the taskora fixture: tools listed per user, reads, and
 * actions refused or done through the API's own permission check and trail.
 */

import assert from "node:assert/strict";
import { Hono } from "hono";
import { type Board, createBoard } from "../../src/board.ts";
import type { BoardOptions, BoardUser } from "../../src/options.ts";
import type { AuditEntry } from "../../src/contract/audit.ts";
import { loadFixture } from "../helpers/fixture.ts";
import { startRedis, type TestRedis } from "../helpers/redis_server.ts";
import { waitFor } from "../helpers/wait_for.ts";
import {
  answerOf,
  type Client,
  connect,
  textOf,
  toolNames,
  withClient,
} from "../helpers/mcp_client.ts";

/** The agents' bearer tokens, as the host's auth hook maps them to board users. */
const AGENTS: Record<string, BoardUser> = {
  "viewer-token": { name: "triage-agent", role: "viewer" },
  "operator-token": { name: "oncall-agent", role: "operator" },
  "admin-token": { name: "lead", role: "admin" },
};

const bearerHook: BoardOptions["auth"] = (request) => {
  const token = request.headers.get("authorization")?.replace(/^Bearer /, "") ?? "";
  return AGENTS[token] ??
    new Response("Unauthorized", { status: 401, headers: { "WWW-Authenticate": "Bearer" } });
};

const ORIGIN = "http://board.test";

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function trail(board: Board): Promise<AuditEntry[]> {
  const response = await board.fetch(
    new Request(`${ORIGIN}/board/api/audit?limit=100`, {
      headers: { authorization: "Bearer admin-token" },
    }),
  );
  assert.equal(response.status, 200);
  return (await response.json()).entries;
}

async function failedJobId(client: Client): Promise<string> {
  const page = await client.callTool({
    name: "get_tasks_task_jobs",
    arguments: { task: "send-email", state: "failed", limit: 1 },
  });
  return (JSON.parse(textOf(page).split("\n").slice(1).join("\n")) as { id: string }[])[0].id;
}

async function withBoard(
  options: BoardOptions,
  run: (board: Board, redis: TestRedis) => Promise<void>,
): Promise<void> {
  const redis = await startRedis();
  await loadFixture(redis.url, { metricsAt: Date.now() });
  const board = createBoard(redis.url, { auth: bearerHook, ...options });
  try {
    await run(board, redis);
  } finally {
    await board.close();
    await redis.stop();
  }
}

Deno.test("an agent reads the overview, a diagnosis and the health report through MCP", async () => {
  await withBoard({}, async (board) => {
    await withClient({ board }, bearer("viewer-token"), async (client) => {
      const names = await toolNames(client);
      for (
        const name of [
          "get_overview",
          "get_tasks_task_jobs",
          "get_tasks_task_jobs_search",
          "get_jobs_jobId",
          "get_jobs_jobId_diagnosis",
          "get_dlq",
          "get_schedules",
          "get_alerts",
          "health_report",
        ]
      ) assert.ok(names.includes(name), name);
      // A viewer may not read the trail: its tool is not listed.
      assert.ok(!names.includes("get_audit"));
      const overview = await client.callTool({ name: "get_overview", arguments: {} });
      assert.match(textOf(overview), /^HTTP 200\n/);
      assert.equal((answerOf(overview).tasks as unknown[]).length, 11);
      const jobId = await failedJobId(client);
      const diagnosis = await client.callTool({
        name: "get_jobs_jobId_diagnosis",
        arguments: { jobId },
      });
      assert.match(textOf(diagnosis), /^HTTP 200\n/);
      assert.deepEqual(
        { id: answerOf(diagnosis).id, state: answerOf(diagnosis).state },
        { id: jobId, state: "failed" },
      );
      const report = await client.callTool({ name: "health_report", arguments: {} });
      assert.match(textOf(report), /^11 tasks: \d+ critical, \d+ warning/);
      const bad = await client.callTool({
        name: "get_tasks_task_jobs",
        arguments: { task: "send-email", state: "nope" },
      });
      assert.equal(bad.isError, true);
      assert.match(textOf(bad), /^HTTP 400\n[\s\S]*"param": "state"/);
    });
  });
});

Deno.test("without mcp.actions no tool changes anything, for an admin too", async () => {
  await withBoard({}, async (board) => {
    await withClient({ board }, bearer("admin-token"), async (client) => {
      const names = await toolNames(client);
      assert.ok(names.includes("get_audit"));
      assert.deepEqual(names.filter((name) => !/^get_|^health_report$/.test(name)), []);
      const retry = await client.callTool({
        name: "post_jobs_jobId_retry",
        arguments: { jobId: "x" },
      });
      assert.equal(retry.isError, true);
      assert.match(textOf(retry), /No tool "post_jobs_jobId_retry"/);
    });
  });
});

Deno.test("with mcp.actions a viewer is refused a retry and an operator's is recorded", async () => {
  await withBoard({ mcp: { actions: true } }, async (board) => {
    const viewer = await connect({ board }, bearer("viewer-token"));
    const operator = await connect({ board }, bearer("operator-token"));
    try {
      const viewerTools = await toolNames(viewer);
      assert.ok(!viewerTools.includes("post_jobs_jobId_retry"));
      const operatorTools = await toolNames(operator);
      assert.ok(operatorTools.includes("post_jobs_jobId_retry"));
      assert.ok(!viewerTools.includes("post_bulk") && operatorTools.includes("post_bulk"));

      const jobId = await failedJobId(viewer);
      const refused = await viewer.callTool({
        name: "post_jobs_jobId_retry",
        arguments: { jobId },
      });
      assert.equal(refused.isError, true);
      assert.match(textOf(refused), /^HTTP 403\n[\s\S]*"code": "FORBIDDEN"/);
      const allowed = await operator.callTool({
        name: "post_jobs_jobId_retry",
        arguments: { jobId },
      });
      assert.match(textOf(allowed), /^HTTP 200\n/);

      const retries = () =>
        trail(board).then((entries) => entries.filter((entry) => entry.action === "job.retry"));
      await waitFor(
        async () => (await retries()).some((entry) => entry.outcome === "ok"),
        { what: "the operator's retry in the trail" },
      );
      const entries = await retries();
      assert.deepEqual(
        entries.map(({ user, target, status, via }) => ({ user, target, status, via })).sort((
          a,
          b,
        ) => a.status - b.status),
        [
          { user: "oncall-agent", target: jobId, status: 200, via: "mcp" },
          { user: "triage-agent", target: jobId, status: 403, via: "mcp" },
        ],
      );
    } finally {
      await viewer.close();
      await operator.close();
    }
  });
});

Deno.test("a bulk tool starts only with the confirmation of its dry run", async () => {
  await withBoard({ mcp: { actions: true } }, async (board) => {
    await withClient({ board }, bearer("operator-token"), async (client) => {
      const body = { action: "retry", selector: { task: "send-email", state: "failed" } };
      const unconfirmed = await client.callTool({ name: "post_bulk", arguments: { body } });
      assert.equal(unconfirmed.isError, true);
      assert.match(textOf(unconfirmed), /dryRun: true first/);
      const dryRun = await client.callTool({
        name: "post_bulk",
        arguments: { body: { ...body, dryRun: true } },
      });
      const preview = answerOf(dryRun);
      assert.equal(preview.count, 5);
      const started = await client.callTool({
        name: "post_bulk",
        arguments: { body, confirm: preview.confirm },
      });
      assert.match(textOf(started), /^HTTP 202\n/);
    });
  });
});

Deno.test("over listen: no anonymous agent, and an agent reads a diagnosis", async () => {
  await withBoard({}, async (board) => {
    const server = await board.listen({ port: 0, hostname: "127.0.0.1" });
    try {
      const url = `http://127.0.0.1:${server.addr.port}/board/mcp`;
      const anonymous = await fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      });
      // The hook's own answer, headers and all.
      assert.deepEqual(
        [anonymous.status, anonymous.headers.get("www-authenticate"), await anonymous.text()],
        [401, "Bearer", "Unauthorized"],
      );
      // Stateless: no stream to open, no session to end.
      const stream = await fetch(url, { headers: { authorization: "Bearer viewer-token" } });
      assert.deepEqual([stream.status, stream.headers.get("allow")], [405, "POST"]);
      assert.equal((await stream.json()).code, "METHOD_NOT_ALLOWED");
      await withClient({ url }, bearer("viewer-token"), async (client) => {
        const jobId = await failedJobId(client);
        const diagnosis = await client.callTool({
          name: "get_jobs_jobId_diagnosis",
          arguments: { jobId },
        });
        assert.match(textOf(diagnosis), /^HTTP 200\n/);
      });
    } finally {
      await server.shutdown();
    }
  });
});

Deno.test("mounted in a Hono host at its base path, the endpoint serves the same tools", async () => {
  await withBoard({}, async (board) => {
    const host = new Hono().route("/board", board.app);
    await withClient(
      { board: { fetch: (request) => host.fetch(request) } },
      bearer("viewer-token"),
      async (client) => {
        const overview = await client.callTool({ name: "get_overview", arguments: {} });
        assert.equal((answerOf(overview).tasks as unknown[]).length, 11);
      },
    );
  });
});
