/**
 * The job search in a real browser, on real Redis holding the taskora
 * fixture: the 8-character ids the board shows (a workflow node, a
 * schedule's last run) open their job, and a start of an id that fits
 * several jobs, in any task, lists them with their task and state.
 */

import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { connectClient, type TestRedis } from "../helpers/redis_server.ts";
import { writeJob } from "../helpers/wire_writer.ts";
import { browserTest, withBoard } from "./harness.ts";

/** The fixture's chord and the job its `sum` node ran as. */
const CHORD = "69fbb603-1f1d-4dd0-82d4-a6f176fcec3a";
const CHORD_SUM_JOB = "ba97ca90-c092-41f3-9c46-bd8484a51a7d";

async function search(page: Page, text: string): Promise<void> {
  const field = page.getByLabel("Find a job by ID");
  await field.fill(text);
  await field.press("Enter");
}

browserTest("the short id on a workflow node opens that node's job", async () => {
  await withBoard({}, async ({ page, root }) => {
    await page.goto(`${root}workflows/${CHORD}`);
    const short = CHORD_SUM_JOB.slice(0, 8);
    await page.locator(".wf-node-meta", { hasText: short }).waitFor();

    await search(page, short);
    await page.locator(".detail-head").getByText("sum").first().waitFor();
    assert.equal(new URL(page.url()).pathname, `/board/jobs/${CHORD_SUM_JOB}`);
  });
});

browserTest("a start of an id shared by jobs of several tasks lists them all", async () => {
  await withBoard({}, async ({ page, root, redis }) => {
    const client = await connectClient(redis.url);
    const mail = "c0ffee00-0000-4000-8000-000000000001";
    const report = "c0ffee00-0000-4000-8000-000000000002";
    await writeJob(client, { task: "send-email", id: mail, state: "waiting" });
    await writeJob(client, { task: "report", id: report, state: "failed" });
    await client.close();
    // The board finds the start of an id among the jobs it listed.
    await page.goto(`${root}tasks/report?state=failed`);
    await page.getByRole("link", { name: report }).waitFor();
    await page.goto(`${root}tasks/send-email?state=waiting`);
    await page.getByRole("link", { name: mail }).waitFor();

    await search(page, "c0ffee00");
    const matches = page.getByRole("alert").filter({ hasText: "whose ID starts with" });
    await matches.getByRole("listitem").nth(1).waitFor();
    // Each row: the whole id (linked), its task, its state.
    const rows = await matches.getByRole("listitem").evaluateAll((items) =>
      items.map((item) => [...item.children].map((part) => part.textContent?.trim()).join(" "))
    );
    assert.deepEqual(rows, [`${mail} send-email waiting`, `${report} report failed`]);
    assert.match(
      await matches.textContent() ?? "",
      /Jobs of every task whose ID starts with “c0ffee00”, among the 10,000 job IDs this board listed last:/,
    );

    await matches.getByRole("link", { name: report }).click();
    await page.waitForURL(`**/board/jobs/${report}`);
    await page.locator(".detail-head").getByText("report").first().waitFor();
    assert.equal(
      await page.getByRole("alert").filter({ hasText: "whose ID starts with" }).count(),
      0,
    );
  });
});

/**
 * Writes a `send-email` job `f23567e7…` in `state` and opens the overview,
 * which lists no job: the board has not seen its id.
 */
async function openWithUnlistedJob(
  page: Page,
  root: string,
  redis: TestRedis,
  state: "waiting" | "failed",
): Promise<string> {
  const client = await connectClient(redis.url);
  const id = await writeJob(client, {
    task: "send-email",
    id: "f23567e7-5b1c-4a0e-9d2f-3c4b5a697e81",
    state,
  });
  await client.close();
  await page.goto(root);
  await page.locator(".card", { hasText: "Throughput" }).waitFor();
  return id;
}

browserTest("a whole id opens its job, though no page of the board listed it", async () => {
  await withBoard({}, async ({ page, root, redis }) => {
    const id = await openWithUnlistedJob(page, root, redis, "waiting");

    await search(page, id);
    await page.waitForURL(`**/board/jobs/${id}`);
    await page.locator(".detail-head").getByText("send-email").first().waitFor();
  });
});

browserTest(
  "a start of an id no recently seen job has says what was searched and offers a task search",
  async () => {
    await withBoard({}, async ({ page, root, redis }) => {
      const id = await openWithUnlistedJob(page, root, redis, "failed");

      await search(page, "f23567e7");
      const problem = page.getByRole("alert").filter({ hasText: "f23567e7" });
      assert.match(
        await problem.textContent() ?? "",
        /No job has the ID “f23567e7”, and none of the 10,000 job IDs this board listed last, in any task, starts with it/,
      );
      // No task is picked for the user: the alphabetically first is no better a guess than another.
      const task = problem.getByLabel("Task to search");
      assert.equal(await task.inputValue(), "");
      const searchTask = problem.getByRole("button", { name: "Search its jobs" });
      assert.equal(await searchTask.isDisabled(), true);
      await task.selectOption("send-email");
      await searchTask.click();

      await page.getByRole("link", { name: id }).waitFor();
      const url = new URL(page.url());
      assert.equal(url.pathname, "/board/tasks/send-email");
      assert.equal(url.searchParams.get("id"), "f23567e7");
    });
  },
);
