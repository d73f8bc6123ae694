/**
 * Tables at 1280 px with 60-character task names and 300-character errors
 * (the task list, a task's failed jobs, a workflow's nodes, the DLQ, the
 * schedules):
 *
 * - every header and cell is inside its table's scroll box: no column sits
 *   hidden behind the scroll shadow;
 * - a long name is cut short with the whole of it in its tooltip;
 * - a job or workflow id shows its first 8 characters, the whole id in its
 *   tooltip and accessible name, and a copy button;
 * - an error column is at least 240 px wide, its text wraps between words
 *   only (never mid-word) up to its clamp, the whole error in its tooltip.
 */

import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { connectClient } from "../helpers/redis_server.ts";
import { writeJob } from "../helpers/wire_writer.ts";
import type { AlertKind } from "../../src/contract/alerts.ts";
import { browserTest, screenshot, withBoard } from "./harness.ts";

/** 60 characters. */
const TASK = "billing.reconcile-invoices-against-the-payment-provider-ledg";
const WORDS = "upstream payment gateway refused the connection while settling invoice batch";
/** 300 characters of words. */
const ERROR = `Error: ${`${WORDS} `.repeat(5)}`.slice(0, 300);
const SCHEDULE = `nightly.${"settlement-export-".repeat(3)}`.padEnd(60, "x");
const CHORD = "69fbb603-1f1d-4dd0-82d4-a6f176fcec3a";

/** What is wrong with the tables on the page, as sentences. Runs in the page. */
function tableProblems(full: { error: string }): string[] {
  const problems: string[] = [];
  const describe = (el: Element) =>
    `${el.tagName.toLowerCase()}.${[...el.classList].join(".")} "${
      (el.textContent ?? "").trim().slice(0, 30)
    }"`;
  for (const table of document.querySelectorAll("table:not(.u-legend)")) {
    const box = (table.closest(".table-wrap") ?? table.parentElement)!;
    const edge = box.getBoundingClientRect();
    const left = edge.left + box.clientLeft;
    const right = left + box.clientWidth;
    for (const cell of table.querySelectorAll(":scope > * > tr > :is(th, td)")) {
      const rect = cell.getBoundingClientRect();
      if (rect.width === 0) continue;
      if (rect.left < left - 0.5 || rect.right > right + 0.5) {
        problems.push(`${describe(cell)} of ${describe(table)} is outside its scroll box`);
      }
    }
  }
  // Errors: wide enough, whole in the tooltip, broken between words only.
  for (const cell of document.querySelectorAll("[data-error]")) {
    const width = cell.getBoundingClientRect().width;
    if (width < 240) problems.push(`${describe(cell)} is ${Math.round(width)} px wide`);
    if (cell.getAttribute("title") !== full.error) {
      problems.push(`${describe(cell)} has not the whole error in its tooltip`);
    }
    const text = cell.firstChild?.nodeType === Node.TEXT_NODE ? cell.firstChild as Text : null;
    if (!text) {
      problems.push(`${describe(cell)} holds no text`);
      continue;
    }
    const range = document.createRange();
    let top: number | null = null;
    for (let i = 0; i < text.length; i++) {
      range.setStart(text, i);
      range.setEnd(text, i + 1);
      const rect = range.getClientRects()[0];
      if (!rect) continue;
      if (top !== null && rect.top > top + 2 && !/\s/.test(text.data[i - 1] + text.data[i])) {
        problems.push(`${describe(cell)} breaks a line mid-word at ${i}`);
        break;
      }
      top = rect.top;
    }
  }
  // Long names: cut short, whole in the tooltip.
  for (const name of document.querySelectorAll("[data-name]")) {
    const whole = name.getAttribute("data-name")!;
    if (name.getAttribute("title") !== whole) {
      problems.push(`${describe(name)} has not the whole name in its tooltip`);
    }
  }
  // Ids: the first 8 characters and an ellipsis, the whole id named and in the tooltip.
  for (const id of document.querySelectorAll("[data-id]")) {
    const whole = id.getAttribute("data-id")!;
    const shown = (id.textContent ?? "").trim();
    if (whole.length > 9 && shown !== `${whole.slice(0, 8)}…`) {
      problems.push(`id ${whole} shows as "${shown}"`);
    }
    if (id.getAttribute("title") !== whole || id.getAttribute("aria-label") !== whole) {
      problems.push(`id ${whole} is not whole in its tooltip and name`);
    }
  }
  return problems;
}

/** How many long texts of each kind a view must show at least (so none is checked vacuously). */
type Marks = { error?: number; id?: number; name?: number };

async function check(
  page: Page,
  path: string,
  ready: string,
  marks: Marks,
  open?: () => Promise<void>,
): Promise<string[]> {
  await page.goto(path);
  await open?.();
  await page.locator(ready).first().waitFor({ timeout: 10_000 });
  await page.evaluate(() => document.fonts.ready);
  const problems = await page.evaluate(tableProblems, { error: ERROR });
  for (const [kind, least] of Object.entries(marks)) {
    const shown = await page.locator(`[data-${kind}]`).count();
    if (shown < least) problems.push(`${shown} ${kind}s marked, not ${least}`);
  }
  return problems.map((problem) => `${path}: ${problem}`);
}

browserTest("at 1280 px long names, ids and errors keep every column in view", async () => {
  await withBoard({}, async ({ page, root, redis }) => {
    const client = await connectClient(redis.url);
    try {
      for (let i = 0; i < 3; i++) {
        await writeJob(client, {
          task: TASK,
          state: "failed",
          attempt: 3,
          maxAttempts: 3,
          error: ERROR,
          finishedOn: Date.now() - i,
        });
      }
      await client.hSet(`taskora:wf:{${CHORD}}`, {
        state: "failed",
        "n:3:state": "failed",
        "n:3:error": ERROR,
      });
      await client.hSet(
        "taskora:schedules",
        SCHEDULE,
        JSON.stringify({ task: TASK, overlap: false, onMissed: "skip", cron: "*/5 * * * *" }),
      );
      await client.zAdd("taskora:schedules:next", { value: SCHEDULE, score: Date.now() + 60_000 });
    } finally {
      await client.close();
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    const problems = [
      ...await check(page, `${root}tasks`, ".table tbody tr", { name: 12 }),
      ...await check(page, `${root}tasks/${TASK}?state=failed`, ".job-table tbody tr", {
        error: 3,
        id: 3,
      }),
      ...await check(page, `${root}workflows/${CHORD}`, ".wf-node-table tbody tr", {
        error: 1,
        id: 4,
        name: 4,
      }),
      ...await check(page, `${root}workflows`, ".wf-table tbody tr", { id: 4 }),
      ...await check(page, `${root}schedules`, ".schedule-table tbody tr", { name: 8 }),
      ...await check(
        page,
        `${root}dlq?task=${TASK}`,
        ".dlq-jobs-table tbody tr",
        { error: 3, id: 3, name: 3 },
        () => page.locator(".dlq-disclosure").first().click(),
      ),
    ];
    assert.deepEqual(problems, []);
  });
});

/** Texts a table cuts short that it means to show whole (names, errors and ids aside). Runs in the page. */
function cutTexts(): string[] {
  const cut: string[] = [];
  for (const table of document.querySelectorAll("table:not(.u-legend)")) {
    for (const el of table.querySelectorAll("th, td, th *, td *")) {
      if (el.closest("[data-name], [data-error], [data-id]")) continue;
      const style = getComputedStyle(el);
      const clips = style.textOverflow === "ellipsis" || style.overflowX !== "visible";
      if (clips && el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1) {
        cut.push(`${el.tagName.toLowerCase()} "${(el.textContent ?? "").trim().slice(0, 40)}"`);
      }
    }
  }
  return cut;
}

browserTest(
  "at 1280 px the Activity table's outcomes and the Alerts rules' headers are whole",
  async () => {
    const hook = (request: Request) =>
      request.headers.get("x-user") === "vic"
        ? { name: "vera.viewer-on-call@payments.example.com", role: "viewer" }
        : { name: "ada", role: "admin" };
    const sinks = ["ops", "payments-pager", "chat"].map((name) => ({
      name,
      type: "webhook" as const,
      url: "http://127.0.0.1:9/",
    }));
    const alerts = {
      sinks: sinks.map((sink) => ({ ...sink, secret: "s".repeat(32), retries: 0 })),
      rules: [
        { name: "send-email failing", kind: "failed", tasks: ["send-email", TASK], threshold: 4 },
        { name: "oldest waiting job", kind: "oldestWaiting", threshold: "10m" },
      ].map((rule) => ({
        ...rule,
        kind: rule.kind as AlertKind,
        sinks: ["ops", "payments-pager", "chat"],
      })),
    };
    await withBoard({ auth: hook, alerts }, async ({ page, root, redis }) => {
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto(`${root}alerts`);
      const post = (path: string, user: string, body: unknown = {}) =>
        page.evaluate(async ([path, user, body]) => {
          const response = await fetch(`api/${path}`, {
            method: "POST",
            headers: { "content-type": "application/json", "x-user": user as string },
            body: JSON.stringify(body),
          });
          return response.status;
        }, [path, user, body] as const);
      const client = await connectClient(redis.url);
      let long: string;
      try {
        long = await writeJob(client, { task: TASK, state: "failed", error: ERROR });
      } finally {
        await client.close();
      }
      assert.equal(await post("jobs/7deea1e0-af8c-4c24-bb84-c89069ee4b0a/retry", "vic"), 403);
      assert.equal(await post(`jobs/${long}/retry`, "vic"), 403);
      assert.equal(await post(`tasks/${TASK}/retry-all`, "vic"), 403);
      assert.equal(await post("tasks/send-email/retry-all", "vic"), 403);
      assert.equal(await post("tasks/send-email/retry-all", "ada"), 200);
      assert.equal(
        await post("alerts/rules", "ada", {
          name: "made on the page, with a name as long as an operator might give it",
          kind: "backlog",
          threshold: 500,
          sinks: ["ops"],
        }),
        201,
      );
      const problems: string[] = [];
      for (const [path, ready] of [["activity", ".activity-table tbody tr"], ["alerts", "table"]]) {
        await page.goto(`${root}${path}`);
        await page.locator(ready).first().waitFor();
        await page.evaluate(() => document.fonts.ready);
        const found = [
          ...await page.evaluate(tableProblems, { error: ERROR }),
          ...await page.evaluate(cutTexts),
        ];
        problems.push(...found.map((problem) => `${path}: ${problem}`));
        for (const width of [390, 1280, 1920]) {
          await page.setViewportSize({ width, height: 900 });
          await screenshot(page, `table-layout-${path}-${width}`);
        }
        await page.setViewportSize({ width: 1280, height: 800 });
      }
      assert.deepEqual(problems, []);
    });
  },
);
