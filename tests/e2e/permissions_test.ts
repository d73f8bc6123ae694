/**
 * The UI shows no control the server would refuse: as a viewer no retry,
 * cancel, clean, bulk checkbox, export link, payload tab or search by data;
 * as an operator all of them.
 */

import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { browserTest, openInPage, screenshot, withBoard } from "./harness.ts";

const FAILED = "7deea1e0-af8c-4c24-bb84-c89069ee4b0a";
const TASK = "send-email";

/** What the job page and the task page of a failed job show `page`. */
async function controls(page: Page, root: string) {
  await page.goto(`${root}jobs/${FAILED}`);
  const tabs = page.getByRole("tab");
  await page.getByRole("tab", { name: /Error/ }).waitFor();
  const seen = {
    tabs: (await tabs.allTextContents()).map((text) => text.trim()),
    retry: await page.getByRole("button", { name: "Retry", exact: true }).count(),
    rerun: await page.getByRole("button", { name: "Run again" }).count(),
    checkboxes: 0,
    exports: 0,
    clean: 0,
    fields: [] as string[],
  };
  await page.goto(`${root}tasks/${TASK}?state=failed`);
  // The job list's rows: the task page's other cards have tables of their own.
  await page.locator(".job-table tbody tr").first().waitFor();
  // The header's actions come with the task's stats, which may answer after the rows.
  await page.locator(".detail-head .task-summary").waitFor();
  seen.checkboxes = await page.getByRole("checkbox").count();
  seen.exports = await page.locator(".export-links").count();
  seen.clean = await page.getByRole("button", { name: "Clean…" }).count();
  seen.fields = await page.locator("select option").allTextContents();
  return seen;
}

browserTest("a viewer sees no control it would be refused, an operator sees them", async () => {
  await withBoard({ auth: () => ({ name: "vic", role: "viewer" }) }, async ({ page, root }) => {
    const viewer = await controls(page, root);
    assert.deepEqual(viewer.tabs.map((tab) => tab.replace(/has content|\d+/g, "").trim()), [
      "Error",
      "Progress",
      "Attempts",
    ]);
    assert.equal(viewer.retry, 0);
    assert.equal(viewer.rerun, 0);
    assert.equal(viewer.checkboxes, 0, "no bulk selection");
    assert.equal(viewer.exports, 0);
    assert.equal(viewer.clean, 0);
    assert.ok(!viewer.fields.includes("data"), "no search by data");
    assert.ok(viewer.fields.includes("error"));
    for (const width of [390, 1280, 1920]) {
      await page.setViewportSize({ width, height: 900 });
      await screenshot(page, `permissions-viewer-${width}`);
    }
  });
  await withBoard({ auth: () => ({ name: "oz", role: "operator" }) }, async ({ page, root }) => {
    const operator = await controls(page, root);
    assert.ok(operator.tabs.some((tab) => tab.startsWith("Data")));
    assert.ok(operator.tabs.some((tab) => tab.startsWith("Logs")));
    assert.equal(operator.retry, 1);
    assert.equal(operator.rerun, 1);
    assert.ok(operator.checkboxes > 0, "bulk selection");
    assert.equal(operator.exports, 1);
    assert.equal(operator.clean, 1);
    assert.ok(operator.fields.includes("data"));
  });
});

/** The buttons of each schedule's row, by schedule name. */
async function scheduleButtons(page: Page, root: string): Promise<Record<string, string[]>> {
  await page.goto(`${root}schedules`);
  await page.getByRole("row", { name: /nightly-report/ }).waitFor();
  const buttons: Record<string, string[]> = {};
  for (const name of ["heartbeat", "nightly-report", "weekly-cleanup"]) {
    const group = page.getByRole("group", { name: `Actions for ${name}` });
    buttons[name] = (await group.count()) === 0
      ? []
      : (await group.getByRole("button").allTextContents()).map((text) => text.trim());
  }
  return buttons;
}

browserTest("each schedule control follows its own action; a hidden payload says so", async () => {
  // pat may pause and run schedules now, and edit them, but neither resume, delete nor read data.
  const allowed = new Set(["schedule.pause", "schedule.trigger", "schedule.update"]);
  await withBoard({
    auth: () => ({ name: "pat" }),
    can: (_user, action) => allowed.has(action),
  }, async ({ page, root }) => {
    const buttons = await scheduleButtons(page, root);
    assert.deepEqual(buttons["nightly-report"], ["Pause", "Run now", "Edit"]);
    assert.deepEqual(buttons["weekly-cleanup"], ["Run now", "Edit"], "paused: no Resume");
    await page.getByRole("group", { name: "Actions for nightly-report" })
      .getByRole("button", { name: "Edit" }).click();
    const editor = page.getByRole("form", { name: "Edit schedule nightly-report" });
    await editor.waitFor();
    assert.equal(await editor.getByLabel("Data (JSON)").count(), 0, "no empty data field");
    assert.match(await editor.innerText(), /data is hidden: you may not read payloads/i);
    for (const width of [390, 1280, 1920]) {
      await page.setViewportSize({ width, height: 900 });
      await screenshot(page, `permissions-schedules-${width}`);
    }
    await page.goto(`${root}jobs/${FAILED}`);
    await page.getByRole("tab", { name: /Error/ }).waitFor();
    assert.match(
      await page.locator(".job-details").innerText(),
      /data, result and logs are hidden: you may not read payloads/i,
    );
  });
  // resume and delete alone: the paused schedule's Resume, every Delete, nothing else.
  const others = new Set(["schedule.resume", "schedule.remove"]);
  await withBoard({
    auth: () => ({ name: "rae" }),
    can: (_user, action) => others.has(action),
  }, async ({ page, root }) => {
    const buttons = await scheduleButtons(page, root);
    assert.deepEqual(buttons["nightly-report"], ["Delete"]);
    assert.deepEqual(buttons["weekly-cleanup"], ["Resume", "Delete"]);
  });
  // none of them: no actions column at all.
  await withBoard({ auth: () => ({ name: "vic", role: "viewer" }) }, async ({ page, root }) => {
    assert.deepEqual(await scheduleButtons(page, root), {
      heartbeat: [],
      "nightly-report": [],
      "weekly-cleanup": [],
    });
    assert.equal(await page.getByRole("columnheader", { name: "Actions" }).count(), 0);
  });
});

browserTest(
  "the Activity page is an admin's: an operator gets neither its link nor a 403",
  async () => {
    await withBoard({ auth: () => ({ name: "oz", role: "operator" }) }, async ({ page, root }) => {
      await page.goto(root);
      const nav = page.getByRole("navigation", { name: "Main" });
      await nav.getByRole("link", { name: "Alerts" }).waitFor();
      assert.equal(await nav.getByRole("link", { name: "Activity" }).count(), 0);
      // A link kept from an admin's session says whose page it is, and reads nothing.
      const audits: string[] = [];
      page.on("request", (request) => {
        if (request.url().includes("api/audit")) audits.push(request.url());
      });
      await page.goto(`${root}activity`);
      await page.getByText("The activity trail is for admins").waitFor();
      assert.equal(await page.getByRole("link", { name: "Export NDJSON" }).count(), 0);
      assert.equal(await page.locator(".banner-error").count(), 0);
      assert.deepEqual(audits, []);
    });
    await withBoard({ auth: () => ({ name: "ada", role: "admin" }) }, async ({ page, root }) => {
      await page.goto(root);
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Activity" })
        .waitFor();
    });
  },
);

browserTest(
  "the sidebar names who is signed in and their role; a page says which role hidden controls need",
  async () => {
    await withBoard({ auth: () => ({ name: "vic", role: "viewer" }) }, async ({ page, root }) => {
      await page.goto(`${root}tasks/${TASK}?state=failed`);
      await page.locator(".sidebar").getByText("Signed in as vic · viewer").waitFor();
      const note = page.getByRole("note").filter({ hasText: /need the operator role/ });
      await note.waitFor();
      assert.match(await note.innerText(), /you are signed in as a viewer/);
      for (const width of [390, 1280, 1920]) {
        await page.setViewportSize({ width, height: 900 });
        await screenshot(page, `permissions-role-note-${width}`);
      }
      await openInPage(page, root);
      await page.locator(".counter").first().waitFor();
      assert.equal(await page.getByRole("note").count(), 0, "the overview hides nothing");
    });
    await withBoard({ auth: () => ({ name: "oz", role: "operator" }) }, async ({ page, root }) => {
      await page.goto(`${root}jobs/${FAILED}`);
      await page.getByRole("tab", { name: /Error/ }).waitFor();
      await page.locator(".sidebar").getByText("Signed in as oz · operator").waitFor();
      assert.equal(await page.getByRole("note").count(), 0, "an operator has every job control");
    });
  },
);
