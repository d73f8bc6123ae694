/**
 * The retrying count says how old it is when the board's kept split is not
 * current: once on the overview's tasks card (the oldest figure of its
 * rows, never a note per row) and on the task page's tab. The answers are
 * edited on the way to the browser (as a board whose split was last counted
 * 3 minutes ago, or never, would send them), and the event stream is
 * refused so the answers are what the page shows.
 */

import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { browserTest, screenshot, withBoard } from "./harness.ts";

/** How old each task's split is said to be (ms), null: never counted; unnamed tasks: current. */
type Ages = Readonly<Record<string, number | null>>;

/** Serves the board's answers with each task's `retryingAsOf` as old as `ages` says. */
async function ageTheSplit(page: Page, ages: Ages): Promise<void> {
  const aged = (name: string) => {
    const age = ages[name];
    return age === undefined ? Date.now() : age === null ? null : Date.now() - age;
  };
  await page.route("**/api/events**", (route) => route.abort());
  await page.route("**/api/overview*", async (route) => {
    const response = await route.fetch();
    const body = await response.json();
    for (const task of body.tasks) task.retryingAsOf = aged(task.name);
    await route.fulfill({ response, json: body });
  });
  await page.route("**/api/tasks/*/stats", async (route) => {
    const response = await route.fetch();
    const body = await response.json();
    await route.fulfill({ response, json: { ...body, retryingAsOf: aged(body.task) } });
  });
}

/** The overview's tasks card. */
const tasksCard = (page: Page) => page.locator(".card", { has: page.locator(".task-table") });

browserTest(
  "the overview's tasks card says once how old its oldest retrying count is",
  async () => {
    await withBoard({}, async ({ page, root }) => {
      await ageTheSplit(page, { "send-email": 180_000, "resize-image": 60_000 });
      await page.goto(root);
      const note = tasksCard(page).locator(".card-actions .as-of");
      await note.waitFor();
      assert.match(
        await note.textContent() ?? "",
        /^retrying as of 3m(?: \d+s)? ago$/,
        "the oldest",
      );
      assert.match(await note.getAttribute("title") ?? "", /^Counted at /);
      assert.equal(await page.locator(".as-of").count(), 1, "one note, none per row");
    });
  },
);

browserTest(
  "the retrying count says 'as of 3m … ago' or 'counting…' when not current",
  async () => {
    await withBoard({}, async ({ page, root }) => {
      await ageTheSplit(page, { "send-email": 180_000, "resize-image": null });
      await page.goto(root);
      const note = tasksCard(page).locator(".card-actions .as-of");
      await note.waitFor();
      assert.equal(await note.textContent(), "retrying counting…", "one task never counted");
      assert.equal(await page.locator(".task-table .as-of").count(), 0, "no note per row");
      for (const width of [390, 1280, 1920]) {
        await page.setViewportSize({ width, height: 900 });
        await screenshot(page, `retrying-as-of-overview-${width}`);
      }

      // The tab's label keeps to its name and count; the note is the panel's first line.
      await page.goto(`${root}tasks/send-email?state=retrying`);
      const panel = page.getByRole("tabpanel");
      const panelNote = panel.locator(".as-of");
      await panelNote.waitFor();
      assert.match(await panelNote.textContent() ?? "", /^retrying as of 3m(?: \d+s)? ago$/);
      assert.match(await panelNote.getAttribute("title") ?? "", /^Counted at /);
      assert.equal(await page.getByRole("tab").locator(".as-of").count(), 0, "none in a tab");
      await page.getByRole("tab", { name: /delayed/ }).click();
      await panel.locator(".as-of").waitFor(); // delayed counts hold the retrying not yet split off
      for (const width of [390, 1280, 1920]) {
        await page.setViewportSize({ width, height: 900 });
        await screenshot(page, `retrying-as-of-task-${width}`);
      }
    });
  },
);
