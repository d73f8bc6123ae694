/**
 * The workflow pages in Chromium, on the real taskora fixture (four finished
 * workflows: a chain, a group of a chain and a task, a chord, a cancelled
 * chain) plus one running workflow written in the shape taskora leaves it
 * (`withRunningWorkflow`): the list, the graph of each shape, opening a
 * node's job, live updates, cancelling, and read-only mode.
 */

import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { withRunningWorkflow } from "../contract/mutation_contract.ts";
import { readFixture, writeKeyspace } from "../helpers/fixture.ts";
import { connectClient } from "../helpers/redis_server.ts";
import {
  type BoardPage,
  browserTest,
  screenshotThemes,
  withBoard,
  type WithBoardOptions,
} from "./harness.ts";

const CHAIN = "05031e79-13f6-4dca-94e8-957133427217";
const GROUP = "534bef22-f368-43d6-b6cd-31868a816f0c";
const CHORD = "69fbb603-1f1d-4dd0-82d4-a6f176fcec3a";
const CANCELLED = "1c78cf3d-5b2d-4961-a5dd-6dd2224e7980";
const RUNNING = "0f9d7c2e-1111-4a7b-9c3d-5e6f70809a0b";

/** The job the chord's `sum` node ran as. */
const CHORD_SUM_JOB = "ba97ca90-c092-41f3-9c46-bd8484a51a7d";

/** The state palette (`--st-*`) as the browser resolves it; pending nodes use `--st-waiting`. */
const COMPLETED_RGB = "rgb(16, 185, 129)";
const ACTIVE_RGB = "rgb(139, 92, 246)";
const PENDING_RGB = "rgb(59, 130, 246)";
const CANCELLED_RGB = "rgb(100, 116, 139)";

/**
 * A browser test on a fixture board that also holds the running workflow,
 * chord(chain(square → square), square → sum): node 0 completed, node 1
 * active, nodes 2 and 3 pending.
 */
function workflowTest(
  name: string,
  options: WithBoardOptions,
  fn: (ctx: BoardPage) => Promise<void>,
): void {
  browserTest(name, () =>
    withBoard(options, async (ctx) => {
      const fixture = readFixture();
      const running = withRunningWorkflow(fixture);
      const added = Object.entries(running.keys).filter(([key, value]) =>
        fixture.keys[key] !== value
      );
      await writeKeyspace(ctx.redis.url, { ...running, keys: Object.fromEntries(added) });
      await fn(ctx);
    }));
}

/** Opens a workflow's page and waits for its graph. */
async function openWorkflow(page: Page, root: string, id: string): Promise<void> {
  await page.goto(`${root}workflows/${id}`);
  await page.locator("svg.wf-graph").waitFor({ timeout: 10_000 });
}

/** Every graph node as `<accessible name>: <outline colour>`, sorted. */
async function nodeColours(page: Page): Promise<string[]> {
  const nodes = await page.locator(".wf-node").evaluateAll((links) =>
    links.map((link) =>
      `${link.getAttribute("aria-label")}: ${
        getComputedStyle(link.querySelector(".wf-node-box")!).stroke
      }`
    )
  );
  return nodes.sort();
}

/** Every graph node's accessible name (`task, state`), sorted. */
async function nodeNames(page: Page): Promise<string[]> {
  return (await nodeColours(page)).map((node) => node.split(":")[0]);
}

workflowTest(
  "the list shows every workflow, newest first, with its state and node count, and filters by state",
  {},
  async ({ page, root }) => {
    await page.goto(`${root}workflows`);
    const rows = page.locator(".wf-table tbody tr");
    await rows.first().waitFor({ timeout: 10_000 });
    const cells = await rows.evaluateAll((trs) =>
      trs.map((tr) =>
        [...tr.querySelectorAll(".wf-table-name, .state-badge, td.num")]
          .map((cell) => cell.textContent?.trim()).join(" | ")
      )
    );
    assert.deepEqual(cells, [
      "chord(chain(square → square), square → sum) | running | 4",
      "chain(square → slow → notify) | cancelled | 3",
      "group(chain(fetch-user → render), square) | completed | 3",
      "chord(square, square, square → sum) | completed | 4",
      "chain(fetch-user → render → notify) | completed | 3",
    ]);
    assert.equal(await page.getByText("5 workflows").count(), 1);
    await screenshotThemes(page, "workflows-list");

    // One tab per state; the choice lives in the URL.
    await page.getByRole("tab", { name: "cancelled" }).click();
    await page.getByText("1 cancelled workflow").waitFor();
    assert.equal(new URL(page.url()).search, "?state=cancelled");
    assert.deepEqual(await rows.locator(".wf-table-name").allTextContents(), [
      "chain(square → slow → notify)",
    ]);
    await page.getByRole("tab", { name: "failed" }).click();
    await page.getByText("No failed workflows.").waitFor();
    await page.getByRole("tab", { name: "all" }).click();
    await page.getByText("5 workflows").waitFor();

    await page.getByRole("link", { name: "chord(square, square, square → sum)" }).click();
    await page.locator("svg.wf-graph").waitFor();
    assert.equal(new URL(page.url()).pathname, `/board/workflows/${CHORD}`);
  },
);

workflowTest(
  "the graph draws one node per workflow node, coloured by its state",
  {},
  async ({ page, root }) => {
    await openWorkflow(page, root, CHORD);
    assert.deepEqual(await nodeColours(page), [
      `square, completed: ${COMPLETED_RGB}`,
      `square, completed: ${COMPLETED_RGB}`,
      `square, completed: ${COMPLETED_RGB}`,
      `sum, completed: ${COMPLETED_RGB}`,
    ]);
    // Three dependencies, all met: three plain arrows into `sum`.
    assert.equal(await page.locator(".wf-edge-done").count(), 3);
    await screenshotThemes(page, "workflow-chord");

    await openWorkflow(page, root, CANCELLED);
    // taskora left the `slow` node's job running: a cancel only signals an active job.
    assert.deepEqual(await nodeColours(page), [
      `notify, cancelled: its workflow was cancelled before its parent nodes completed: it will never start: ${CANCELLED_RGB}`,
      `slow, cancelled, job active: ${CANCELLED_RGB}`,
      `square, completed: ${COMPLETED_RGB}`,
    ]);
    assert.equal(await page.getByText("Cancelled: demo cancel").count(), 1);
    await screenshotThemes(page, "workflow-cancelled-chain");

    await openWorkflow(page, root, GROUP);
    assert.deepEqual(await nodeNames(page), [
      "fetch-user, completed",
      "render, completed",
      "square, completed",
    ]);
    await screenshotThemes(page, "workflow-group");

    await openWorkflow(page, root, CHAIN);
    assert.deepEqual(await nodeNames(page), [
      "fetch-user, completed",
      "notify, completed",
      "render, completed",
    ]);
  },
);

workflowTest(
  "the dependency into an active node is animated, unless motion is reduced",
  {},
  async ({ page, root }) => {
    await openWorkflow(page, root, RUNNING);
    // The pending root's job is already queued: the node says so.
    assert.deepEqual(await nodeColours(page), [
      `square, active: ${ACTIVE_RGB}`,
      `square, completed: ${COMPLETED_RGB}`,
      `square, pending, job waiting: ${PENDING_RGB}`,
      `sum, pending: it starts once its parent nodes complete: #1 square (active), #2 square (waiting): ${PENDING_RGB}`,
    ]);
    const jobStates = await page.locator(".wf-node-table tbody tr").evaluateAll((rows) =>
      rows.map((row) => row.querySelectorAll("td")[2].textContent?.trim())
    );
    // The node with no job yet says why instead of a dash, and opens no job page (it has none).
    assert.deepEqual(jobStates, [
      "completed",
      "active",
      "waiting",
      "it starts once its parent nodes complete: #1 square (active), #2 square (waiting)",
    ]);
    assert.equal(await page.getByRole("link", { name: /^sum/ }).count(), 0);
    assert.equal(await page.locator(".wf-node-table a[href$='wf-run-3']").count(), 0);
    assert.match(
      await page.locator(".wf-node", { hasText: "sum" }).textContent() ?? "",
      /no job yet/,
    );
    const flowing = page.locator(".wf-edge-flowing");
    const animation = () => flowing.evaluate((edge) => getComputedStyle(edge).animationName);
    assert.equal(await animation(), "wf-flow");
    await screenshotThemes(page, "workflow-running");

    await page.emulateMedia({ reducedMotion: "reduce" });
    assert.equal(await animation(), "none");
  },
);

workflowTest("clicking a workflow node opens its job page", {}, async ({ page, root }) => {
  await openWorkflow(page, root, CHORD);
  // A mark on the window survives only an in-app navigation, not a page load.
  await page.evaluate(() => Object.assign(globalThis, { stillTheSamePage: true }));
  await page.getByRole("link", { name: "sum, completed" }).click();
  await page.waitForURL(`${root}jobs/${CHORD_SUM_JOB}`);
  assert.equal(await page.evaluate(() => "stillTheSamePage" in globalThis), true);

  // From the keyboard: a focused node opens with Enter.
  await page.goBack();
  await page.locator("svg.wf-graph").waitFor();
  await page.getByRole("link", { name: "sum, completed" }).focus();
  await page.keyboard.press("Enter");
  await page.waitForURL(`${root}jobs/${CHORD_SUM_JOB}`);
});

workflowTest(
  "the graph follows the workflow live: a node job's event redraws it",
  {},
  async ({ page, root, redis }) => {
    await openWorkflow(page, root, RUNNING);
    await page.getByRole("link", { name: "square, active" }).waitFor();

    // What taskora does when node 1's job completes: the job's state, the
    // node's state in the workflow hash, then the job's `completed` event.
    const client = await connectClient(redis.url);
    try {
      await client.hSet("taskora:{square}:wf-run-1", { state: "completed" });
      await client.hSet(`taskora:wf:{${RUNNING}}`, { "n:1:state": "completed" });
      await client.xAdd("taskora:{square}:events", "*", { event: "completed", jobId: "wf-run-1" });
    } finally {
      await client.close();
    }
    await page.getByRole("link", { name: "square, active" }).waitFor({ state: "detached" });
    assert.deepEqual(await nodeNames(page), [
      "square, completed",
      "square, completed",
      "square, pending, job waiting",
      "sum, pending",
    ]);
  },
);

workflowTest(
  "cancelling a running workflow asks first, then cancels its open nodes",
  {},
  async ({ page, root }) => {
    await openWorkflow(page, root, RUNNING);
    await page.getByRole("button", { name: "Cancel workflow" }).click();
    const dialog = page.getByRole("dialog", { name: "Cancel this workflow?" });
    await dialog.getByRole("button", { name: "Cancel workflow" }).click();

    await page.getByText("Workflow cancelled: 2 node jobs cancelled, 1 signalled to stop.")
      .waitFor({ timeout: 10_000 });
    await page.locator(".wf-head .state-badge", { hasText: "cancelled" }).waitFor();
    // The running node's job was only signalled: it runs until its worker stops it.
    assert.deepEqual(await nodeNames(page), [
      "square, cancelled, job active",
      "square, cancelled",
      "square, completed",
      "sum, cancelled",
    ]);
    await page.locator(".wf-node-table .wf-not-started", {
      hasText: "its workflow was cancelled before its parent nodes completed: it will never start",
    }).waitFor();
    assert.equal(await page.getByRole("button", { name: "Cancel workflow" }).count(), 0);
  },
);

workflowTest(
  "read-only mode shows a running workflow without the cancel button",
  { readOnly: true },
  async ({ page, root }) => {
    await openWorkflow(page, root, RUNNING);
    assert.equal(await page.locator(".wf-head .state-badge").textContent(), "running");
    assert.equal(await page.getByRole("button", { name: "Cancel workflow" }).count(), 0);
  },
);
