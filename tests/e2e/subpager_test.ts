/**
 * The pagers inside a page, as every other list's (`pager_test.ts`): the
 * DLQ's jobs of an error group and a job's log lines, in a real browser on
 * Redis. Each offers the page size, remembers it for the board's next list,
 * and keeps its page in the URL, so that a shared link opens the same page
 * (the group opened, the Logs tab shown) in a browser that remembers nothing.
 */

import assert from "node:assert/strict";
import { browserTest, sharedBrowser, withBoard } from "./harness.ts";
import { connectClient } from "../helpers/redis_server.ts";
import { jobCommands, writeJob } from "../helpers/wire_writer.ts";
import { taskKeys } from "../../src/source/wire/keys.ts";

const ERROR = "Paging gateway refused the call";

type Client = Awaited<ReturnType<typeof connectClient>>;

/** `count` failed jobs of the task `paging`, all with {@link ERROR}: one DLQ group. */
async function writeGroup(client: Client, count: number): Promise<void> {
  const commands = Array.from(
    { length: count },
    (_, i) =>
      jobCommands({ task: "paging", state: "failed", error: ERROR, finishedOn: 1e12 + i }).commands,
  ).flat();
  await Promise.all(commands.map((args) => client.sendCommand(args)));
}

/** A completed send-email job that logged `count` lines (`line 0`, `line 1`, …); its id. */
async function writeLoggedJob(client: Client, count: number): Promise<string> {
  const id = await writeJob(client, { task: "send-email", state: "completed" });
  const lines = Array.from(
    { length: count },
    (_, i) => JSON.stringify({ level: "info", message: `line ${i}`, timestamp: 1e12 + i }),
  );
  await client.sendCommand(["RPUSH", `${taskKeys("send-email").jobPrefix}${id}:logs`, ...lines]);
  return id;
}

browserTest("an error group's jobs: page size, remembered, and the page in the URL", async () => {
  await withBoard({}, async ({ page, root, redis }) => {
    const client = await connectClient(redis.url);
    try {
      await writeGroup(client, 120);
    } finally {
      await client.close();
    }
    await page.goto(`${root}dlq`);
    const group = page.locator(".dlq-group", { hasText: ERROR });
    await group.locator(".dlq-disclosure").click();
    const pager = page.locator(".dlq-jobs").getByRole("navigation", { name: "Pages" });
    await pager.getByText("1–25 of 120").waitFor();

    await pager.getByRole("combobox", { name: "Page size" }).selectOption("50");
    await pager.getByText("1–50 of 120").waitFor();
    await pager.getByRole("button", { name: "Next" }).click();
    await pager.getByText("51–100 of 120").waitFor();
    const url = new URL(page.url());
    assert.equal(url.searchParams.get("group"), ERROR);
    assert.deepEqual([url.searchParams.get("page"), url.searchParams.get("size")], ["2", "50"]);
    assert.equal(await page.locator(".dlq-jobs-table tbody tr").count(), 50);

    // Remembered for this board: the group opened again without a size uses it.
    await page.goto(`${root}dlq`);
    await group.locator(".dlq-disclosure").click();
    await pager.getByText("1–50 of 120").waitFor();

    // A shared link opens the group at its page in another browser, which remembers nothing.
    const other = await (await sharedBrowser()).newContext();
    const shared = await other.newPage();
    const query = new URLSearchParams({ group: ERROR, page: "3", size: "25" });
    await shared.goto(`${root}dlq?${query}`);
    await shared.locator(".dlq-jobs").getByRole("navigation", { name: "Pages" })
      .getByText("51–75 of 120").waitFor();
  });
});

browserTest("a job's log lines: page size, remembered, and the page in the URL", async () => {
  await withBoard({}, async ({ page, root, redis }) => {
    const client = await connectClient(redis.url);
    let id: string;
    try {
      id = await writeLoggedJob(client, 620);
    } finally {
      await client.close();
    }
    await page.goto(`${root}jobs/${id}`);
    await page.getByRole("tab", { name: /Logs/ }).click();
    const pager = page.locator(".job-panel").getByRole("navigation", { name: "Pages" });
    // It opens at the newest lines.
    await pager.getByText("521–620 of 620").waitFor();
    await page.getByText("line 619", { exact: true }).waitFor();

    await pager.getByRole("combobox", { name: "Page size" }).selectOption("25");
    await pager.getByRole("button", { name: "First" }).click();
    await pager.getByText("1–25 of 620").waitFor();
    await page.getByText("line 0", { exact: true }).waitFor();
    assert.equal(await page.locator("table.logs tbody tr").count(), 25);
    await pager.getByRole("button", { name: "Next" }).click();
    await pager.getByText("26–50 of 620").waitFor();
    const url = new URL(page.url());
    assert.deepEqual([url.searchParams.get("page"), url.searchParams.get("size")], ["2", "25"]);

    // Remembered for this board: the newest 25 lines, on the next job page opened.
    await page.goto(`${root}jobs/${id}`);
    await page.getByRole("tab", { name: /Logs/ }).click();
    await pager.getByText("596–620 of 620").waitFor();
    assert.equal(await page.locator("table.logs tbody tr").count(), 25);

    // A shared link opens the Logs tab at its page in another browser, which remembers nothing.
    const other = await (await sharedBrowser()).newContext();
    const shared = await other.newPage();
    await shared.goto(`${root}jobs/${id}?page=3&size=25`);
    await shared.locator(".job-panel").getByRole("navigation", { name: "Pages" })
      .getByText("51–75 of 620").waitFor();
    await shared.getByText("line 50", { exact: true }).waitFor();
  });
});

browserTest("a link past the last page of a group or a log opens its last page", async () => {
  await withBoard({}, async ({ page, root, redis }) => {
    const client = await connectClient(redis.url);
    let id: string;
    try {
      await writeGroup(client, 30);
      id = await writeLoggedJob(client, 60);
    } finally {
      await client.close();
    }
    // Two pages of 25: a link to page 9 (the group since retried, a log since trimmed) shows page 2,
    // read straight after the empty page 9, not by stepping back a page per read.
    const groupReads: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).searchParams.has("pattern")) groupReads.push(request.url());
    });
    await page.goto(`${root}dlq?${new URLSearchParams({ group: ERROR, page: "9", size: "25" })}`);
    await page.locator(".dlq-jobs").getByRole("navigation", { name: "Pages" })
      .getByText("26–30 of 30").waitFor();
    // The pager moves with the step back; its rows come with the read that follows.
    const rows = page.locator(".dlq-jobs-table tbody tr");
    await rows.nth(4).waitFor();
    assert.equal(await rows.count(), 5);
    assert.deepEqual(groupReads.map((url) => new URL(url).searchParams.get("offset")), [
      "200",
      "25",
    ]);

    await page.goto(`${root}jobs/${id}?page=9&size=25`);
    await page.locator(".job-panel").getByRole("navigation", { name: "Pages" })
      .getByText("51–60 of 60").waitFor();
    await page.getByText("line 59", { exact: true }).waitFor();
  });
});
