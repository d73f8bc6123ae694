/**
 * The Activity page in a real browser, on Redis: the mutations made through
 * the board are listed newest first with who made them; the outcome filter
 * lives in the URL; the export link names the filters. Screenshots at 390,
 * 1280 and 1920 px.
 */

import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { withClient } from "../helpers/redis_server.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { browserTest, screenshot, withBoard } from "./harness.ts";
import { withClient as withMcpClient } from "../helpers/mcp_client.ts";

const FAILED = "7deea1e0-af8c-4c24-bb84-c89069ee4b0a";

/** Sends a mutation from the board's page, as its own code does (as `user`, to the test's hook). */
async function mutate(page: Page, path: string, user = "ada"): Promise<number> {
  return await page.evaluate(async ([path, user]) => {
    const response = await fetch(`api/${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-user": user },
    });
    return response.status;
  }, [path, user]);
}

browserTest("the Activity page lists the board's mutations, filtered by outcome", async () => {
  await withBoard({ auth: () => ({ name: "ada", role: "admin" }) }, async ({ page, root }) => {
    await page.goto(`${root}activity`);
    await page.getByText("No activity yet").waitFor();
    assert.equal(await mutate(page, `jobs/${FAILED}/retry`), 200);
    assert.equal(await mutate(page, `jobs/${FAILED}/retry`), 409);
    assert.equal(await mutate(page, "tasks/send-email/retry-all"), 200);
    await page.reload();
    const rows = page.locator(".activity-table tbody tr");
    await rows.nth(2).waitFor();
    assert.equal(await rows.count(), 3);
    assert.match(
      await rows.nth(0).innerText(),
      /ada[\s\S]*task\.retry-all[\s\S]*send-email[\s\S]*4[\s\S]*ok/,
    );
    assert.match(await rows.nth(1).innerText(), /job\.retry[\s\S]*INVALID_STATE/);
    assert.equal(
      await rows.nth(2).getByRole("link", { name: FAILED }).getAttribute("href"),
      `jobs/${FAILED}`,
    );

    await page.getByLabel("Outcome").selectOption("error");
    await page.waitForURL("**/activity?outcome=error");
    await page.waitForFunction(() =>
      document.querySelectorAll(".activity-table tbody tr").length === 1
    );
    assert.match(await rows.nth(0).innerText(), /INVALID_STATE/);
    assert.equal(
      await page.getByRole("link", { name: "Export NDJSON" }).getAttribute("href"),
      "api/audit?outcome=error&format=ndjson",
    );
    await page.getByLabel("Outcome").selectOption("");
    await rows.nth(2).waitFor();
    for (const width of [390, 1280, 1920]) {
      await page.setViewportSize({ width, height: 900 });
      await screenshot(page, `activity-${width}`);
    }
  });
});

browserTest(
  "the Activity page shows refusals beside actions, and entries written late or pending",
  async () => {
    const hook = (request: Request) =>
      request.headers.get("x-user") === "mallory"
        ? new Response("go away", { status: 403 })
        : { name: request.headers.get("x-user") ?? "ada", role: "admin" };
    await withBoard({ auth: hook }, async ({ page, root, redis }) => {
      await page.goto(`${root}activity`);
      await page.getByText("No activity yet").waitFor();
      assert.equal(await mutate(page, "schedules/weekly-cleanup/resume"), 200);
      // An action's outcome is written as its answer goes out, a refusal as it is refused: the
      // refusal below waits for the resume's outcome, so the two are stored in the order they
      // came (in CI, under load, the refusal was written first and listed below the resume).
      await waitFor(
        () =>
          withClient(redis.url, async (client) => {
            const [last] = await client.xRevRange("taskora:board:audit", "+", "-", { COUNT: 1 });
            return last?.message.e?.includes('"outcome":"ok"');
          }),
        { what: "the resume's outcome to be written" },
      );
      assert.equal(await mutate(page, "schedules/heartbeat/pause", "mallory"), 403);
      const happened = Date.now() - 3_600_000;
      await withClient(redis.url, async (client) => {
        const entry = (fields: Record<string, unknown>) =>
          JSON.stringify({
            at: 0,
            user: "bob",
            task: "send-email",
            count: 12,
            outcome: "ok",
            status: 200,
            code: null,
            detail: null,
            ...fields,
          });
        await client.xAdd("taskora:board:audit", "*", {
          e: entry({ action: "bulk.retry", target: "op-1", late: happened }),
        });
        await client.xAdd("taskora:board:audit", "*", {
          e: entry({ action: "job.cancel", target: "job-9", outcome: "pending", count: null }),
        });
      });
      await page.reload();
      const rows = page.locator(".activity-table tbody tr");
      await rows.nth(3).waitFor();
      assert.match(await rows.nth(0).innerText(), /job\.cancel[\s\S]*pending/);
      assert.match(
        await rows.nth(1).innerText(),
        /bulk\.retry[\s\S]*ok[\s\S]*written late, happened 1h ago/,
      );
      assert.match(
        await rows.nth(2).innerText(),
        /anonymous[\s\S]*schedule\.pause[\s\S]*AUTH_HOOK/,
      );
      assert.match(await rows.nth(3).innerText(), /ada[\s\S]*schedule\.resume[\s\S]*ok/);

      await page.getByLabel("Outcome").selectOption("error");
      await page.waitForURL("**/activity?outcome=error");
      await page.waitForFunction(() =>
        document.querySelectorAll(".activity-table tbody tr").length === 1
      );
      assert.match(await rows.nth(0).innerText(), /AUTH_HOOK/);
      for (const width of [390, 1280, 1920]) {
        await page.getByLabel("Outcome").selectOption("");
        await rows.nth(3).waitFor();
        await page.setViewportSize({ width, height: 900 });
        await screenshot(page, `activity-refusals-${width}`);
      }
    });
  },
);

browserTest("the Activity page marks an agent's entries via MCP, and filters them", async () => {
  const hook = (request: Request) => ({
    name: request.headers.get("x-user") ?? "ada",
    role: "admin",
  });
  await withBoard({ auth: hook, mcp: { actions: true } }, async ({ page, root }) => {
    await page.goto(`${root}activity`);
    await page.getByText("No activity yet").waitFor();
    assert.equal(await mutate(page, `jobs/${FAILED}/retry`), 200);
    // A real agent's tool call, through the board's MCP endpoint, as its hook's user.
    await withMcpClient({ url: `${root}mcp` }, { "x-user": "oncall-agent" }, async (client) => {
      const result = await client.callTool({
        name: "post_tasks_task_retry_all",
        arguments: { task: "send-email" },
      });
      assert.equal(result.isError, false);
    });
    await page.reload();
    const rows = page.locator(".activity-table tbody tr");
    await rows.nth(1).waitFor();
    assert.equal(await rows.count(), 2);
    const agentUser = rows.nth(0).locator('[data-label="User"]');
    assert.match(await agentUser.innerText(), /oncall-agent\s*via MCP/);
    assert.equal(
      await agentUser.getByText("via MCP").getAttribute("title"),
      "Made by an agent through the MCP endpoint",
    );
    assert.match(await rows.nth(0).innerText(), /task\.retry-all/);
    assert.equal(
      await rows.nth(1).getByText("via MCP").count(),
      0,
      "ada's own request is no agent's",
    );

    await page.getByLabel("Made through").selectOption("mcp");
    await page.waitForURL("**/activity?via=mcp");
    await page.waitForFunction(() =>
      document.querySelectorAll(".activity-table tbody tr").length === 1
    );
    assert.match(await rows.nth(0).innerText(), /oncall-agent[\s\S]*via MCP/);
    await page.getByLabel("Made through").selectOption("api");
    await page.waitForURL("**/activity?via=api");
    await page.waitForFunction(() =>
      document.querySelectorAll(".activity-table tbody tr").length === 1 &&
      !document.querySelector(".activity-via")
    );
    assert.match(await rows.nth(0).innerText(), /ada[\s\S]*job\.retry/);
    await page.getByLabel("Made through").selectOption("");
    await rows.nth(1).waitFor();
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await screenshot(page, `activity-via-mcp-${width}`);
    }
  });
});

browserTest(
  "an Activity filter typed and not yet applied stays while the page draws again",
  async () => {
    await withBoard({ auth: () => ({ name: "ada", role: "admin" }) }, async ({ page, root }) => {
      await page.goto(`${root}activity`);
      const user = page.getByRole("search").getByLabel("User");
      await user.fill("ada");
      // A select applies at once: the page draws again, as it does at every answer.
      await page.getByLabel("Outcome").selectOption("error");
      await page.waitForURL("**/activity?outcome=error");
      assert.equal(await user.inputValue(), "ada", "the typing is still there");
      await user.press("Enter");
      await page.waitForFunction(() => new URLSearchParams(location.search).get("user") === "ada");
      assert.equal(new URL(page.url()).searchParams.get("outcome"), "error");
    });
  },
);
