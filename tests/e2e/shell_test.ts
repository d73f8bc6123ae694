/**
 * The board's frame in a real browser, on real Redis holding the taskora
 * fixture: the overview's facts, keyboard shortcuts, the job search, the
 * theme switch, live updates (and the polling fallback), a board mounted at
 * another base path, read-only mode, and signing in and out.
 */

import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { connectClient } from "../helpers/redis_server.ts";
import { writeJob } from "../helpers/wire_writer.ts";
import { browserTest, screenshotThemes, signIn, withBoard } from "./harness.ts";

const FAILED_EMAIL = "7deea1e0-af8c-4c24-bb84-c89069ee4b0a";
function counter(page: Page, state: string) {
  return page.locator(`.counter.state-${state} .counter-value`);
}

/** Marks the document, so a test can tell that no reload happened since. */
async function markDocument(page: Page): Promise<() => Promise<boolean>> {
  await page.evaluate(() => Object.assign(globalThis, { __sameDocument: true }));
  return () => page.evaluate(() => "__sameDocument" in globalThis);
}

browserTest("the overview shows the fixture's counts, tasks, throughput and Redis", async () => {
  await withBoard({}, async ({ page, root }) => {
    await page.goto(root);
    await counter(page, "completed").filter({ hasText: "29" }).waitFor();
    assert.equal(await counter(page, "failed").textContent(), "5");
    assert.equal(await counter(page, "delayed").textContent(), "6");
    const emailRow = page.getByRole("row", { name: /send-email/ });
    assert.match(await emailRow.textContent() ?? "", /warning/i);
    assert.equal(await page.locator(".table tbody tr").count(), 11);
    await page.locator(".chart canvas").first().waitFor();
    assert.match(
      await page.getByRole("img", { name: /last 24 hours/ }).getAttribute("aria-label") ?? "",
      /29 completed, 5 failed/,
    );
    assert.match(
      await page.locator(".card", { hasText: "Redis" }).textContent() ?? "",
      /Connected/,
    );
    assert.equal(await page.title(), "Overview — queue-board");
    await screenshotThemes(page, "overview");
  });
});

browserTest(
  "keys 1–5 open the main views, but not while typing; / focuses the search",
  async () => {
    await withBoard({}, async ({ page, root }) => {
      await page.goto(root);
      await counter(page, "completed").filter({ hasText: "29" }).waitFor();
      const heading = page.locator(".page-title");
      for (
        const [key, path, title] of [
          ["2", "tasks", "Tasks"],
          ["3", "workflows", "Workflows"],
          ["4", "schedules", "Schedules"],
          ["5", "dlq", "Dead-letter queue"],
          ["1", "", "Overview"],
        ]
      ) {
        await page.keyboard.press(key);
        await heading.filter({ hasText: title }).waitFor();
        assert.equal(new URL(page.url()).pathname, `/board/${path}`);
      }
      await page.keyboard.press("/");
      const search = page.getByLabel("Find a job by ID");
      assert.equal(await search.evaluate((el) => el === document.activeElement), true);
      await page.keyboard.type("3");
      assert.equal(await search.inputValue(), "3", "typed into the field, not a shortcut");
      assert.equal(await heading.textContent(), "Overview");
    });
  },
);

browserTest("the job search opens a job, or says that it does not exist", async () => {
  await withBoard({}, async ({ page, root }) => {
    await page.goto(root);
    const search = page.getByLabel("Find a job by ID");
    await search.fill("no-such-job");
    await search.press("Enter");
    await page.getByRole("alert").filter({
      hasText:
        "No job has the ID “no-such-job”, and none of the 10,000 job IDs this board listed last, " +
        "in any task, starts with it",
    }).waitFor();
    await search.fill(FAILED_EMAIL);
    await search.press("Enter");
    await page.waitForURL(`**/board/jobs/${FAILED_EMAIL}`);
    await page.getByText("send-email").first().waitFor();
  });
});

browserTest("the theme switch changes the colours and is remembered", async () => {
  await withBoard({ theme: "light" }, async ({ page, root }) => {
    await page.goto(root);
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const themes = page.getByRole("group", { name: "Colour theme" });
    assert.equal(
      await themes.getByRole("button", { name: "Light" }).getAttribute("aria-pressed"),
      "true",
    );
    const light = await background();
    await themes.getByRole("button", { name: "Dark" }).click();
    const dark = await background();
    assert.notEqual(dark, light);
    assert.equal(dark, "rgb(11, 15, 23)");
    await page.reload();
    await themes.getByRole("button", { name: "Dark" }).waitFor();
    assert.equal(await background(), dark, "the choice survives a reload");
    await themes.getByRole("button", { name: "Auto" }).click();
    await page.emulateMedia({ colorScheme: "dark" });
    assert.equal(await background(), dark, "auto follows the system's dark scheme");
    await page.emulateMedia({ colorScheme: "light" });
    assert.equal(await background(), light);
  });
});

browserTest("a live event changes a counter without a reload", async () => {
  await withBoard({ statsInterval: 500 }, async ({ page, root, redis }) => {
    await page.goto(root);
    await page.locator(".live-live").waitFor();
    await counter(page, "waiting").filter({ hasText: /^0$/ }).waitFor();
    const sameDocument = await markDocument(page);
    const client = await connectClient(redis.url);
    try {
      await writeJob(client, { task: "send-email", state: "waiting", data: { to: "a@b.c" } });
      await writeJob(client, { task: "send-email", state: "waiting", data: { to: "d@e.f" } });
    } finally {
      await client.close();
    }
    await counter(page, "waiting").filter({ hasText: /^2$/ }).waitFor();
    assert.equal(await sameDocument(), true);
  });
});

browserTest("while the event stream is down the board polls and says so", async () => {
  await withBoard({ refreshInterval: 500 }, async ({ page, root, redis }) => {
    await page.route("**/api/events", (route) => route.abort());
    await page.goto(root);
    const indicator = page.locator(".live");
    await indicator.filter({ hasText: "Polling" }).waitFor();
    const client = await connectClient(redis.url);
    try {
      await writeJob(client, { task: "square", state: "waiting", data: 3 });
    } finally {
      await client.close();
    }
    await counter(page, "waiting").filter({ hasText: /^1$/ }).waitFor();
    await page.unroute("**/api/events");
    await indicator.filter({ hasText: "Live" }).waitFor({ timeout: 15_000 });
  });
});

browserTest("mounted at another base path, deep links and navigation stay below it", async () => {
  await withBoard({ basePath: "/ops/queues", title: "Acme queues" }, async ({ page, root }) => {
    await page.goto(`${root}tasks`);
    await page.getByRole("link", { name: "send-email" }).click();
    await page.waitForURL("**/ops/queues/tasks/send-email**");
    await page.reload();
    // The task page is a lazy chunk: it names the tab once it has loaded, after the shell's top bar.
    await page.locator(".task-name").filter({ hasText: "send-email" }).waitFor();
    await page.waitForFunction(() => document.title === "send-email — Acme queues");
    await page.getByRole("link", { name: "Overview" }).click();
    assert.equal(new URL(page.url()).pathname, "/ops/queues/");
  });
});

browserTest("read-only mode says so in the top bar", async () => {
  await withBoard({ readOnly: true }, async ({ page, root }) => {
    await page.goto(root);
    await page.locator(".topbar .badge").filter({ hasText: "Read-only" }).waitFor();
  });
});

browserTest("signing in opens the page asked for; signing out ends the session", async () => {
  const auth = {
    cookiePassword: "a-test-cookie-password-of-32-chars!",
    authenticate: ({ username, password }: { username: string; password: string }) =>
      username === "ada" && password === "lovelace" ? { name: "Ada" } : null,
  };
  await withBoard({ auth }, async ({ page, root }) => {
    await signIn(page, root, "dlq");
    await page.locator(".page-title").filter({ hasText: "Dead-letter queue" }).waitFor();
    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    await page.waitForURL("**/board/login**");
    const api = await page.request.get(`${root}api/overview`);
    assert.equal(api.status(), 401);
  });
});

browserTest("a page whose code cannot be fetched says so and offers a reload", async () => {
  await withBoard({}, async ({ page, root }) => {
    let blocked = true;
    await page.route(/\/assets\/job\.[0-9a-f]+\.js$/, (route) => {
      return blocked ? route.abort() : route.continue();
    });
    await page.goto(`${root}jobs/${FAILED_EMAIL}`);
    const alert = page.getByRole("alert").filter({ hasText: "did not load" });
    await alert.waitFor();
    blocked = false;
    await page.getByRole("button", { name: "Reload" }).click();
    await page.getByText(FAILED_EMAIL).first().waitFor();
    assert.equal(await alert.count(), 0);
  });
});
