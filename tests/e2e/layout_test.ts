/**
 * Every view of the board at a phone's width (390 px), two laptops'
 * (1280 × 800, 1440 × 900) and a desktop's (1920 px), on the real taskora
 * fixture. At each width:
 *
 * - the page never scrolls sideways (`scrollWidth <= innerWidth`);
 * - every button is whole on screen: inside the viewport and inside the box
 *   of every container that clips it (a table's scroll area included);
 * - a container that scrolls sideways says so with a shadow on the edge that
 *   hides content, and a table that does not scroll stays inside its card;
 * - on the phone, every cell of every table is on screen (tables turn into
 *   one card per row rather than scrolling, so a row shows more than its id).
 *
 * With `SCREENSHOTS=1`, each view is saved as `tests/e2e/screenshots/<view>-<width>.png`.
 */

import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { createBoard } from "../../mod.ts";
import { JOB_STATES } from "../../src/source/types.ts";
import { connectClient } from "../helpers/redis_server.ts";
import { writeJob } from "../helpers/wire_writer.ts";
import { browserTest, openInPage, screenshot, serveTestBoard, withBoard } from "./harness.ts";

/** Viewports: a phone, two laptops, a desktop. */
const VIEWPORTS = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
  { width: 1440, height: 900 },
  { width: 1920, height: 1080 },
] as const;

/** Up to this width every table cell must be on screen (the tables are cards). */
const PHONE = 390;

/** A failed send-email job with two log lines. */
const FAILED_JOB = "7deea1e0-af8c-4c24-bb84-c89069ee4b0a";
/** A chord: four nodes on three levels. */
const CHORD = "69fbb603-1f1d-4dd0-82d4-a6f176fcec3a";

/** One view: where it is, what shows it is ready, and what to open first. */
interface View {
  name: string;
  path: string;
  ready: string;
  open?: (page: Page) => Promise<void>;
}

/** The task with the most jobs in `state` (the fixture has no waiting job at all). */
async function busiestTask(root: string, state: string): Promise<string> {
  const overview = await (await fetch(`${root}api/overview`)).json() as {
    tasks: { name: string; stats: Record<string, number> }[];
  };
  return overview.tasks.sort((a, b) => b.stats[state] - a.stats[state])[0].name;
}

/** Every view, the task page once per state tab. */
async function views(root: string): Promise<View[]> {
  const taskTabs = await Promise.all(JOB_STATES.map(async (state) => ({
    name: `task-${state}`,
    path: `tasks/${await busiestTask(root, state)}?state=${state}`,
    ready: ".job-table tbody tr, #task-state-panel .paged-list > p.empty",
  })));
  return [
    { name: "overview", path: "", ready: ".chart canvas" },
    { name: "tasks", path: "tasks", ready: ".table tbody tr" },
    ...taskTabs,
    { name: "job", path: `jobs/${FAILED_JOB}`, ready: ".timeline" },
    {
      name: "job-logs",
      path: `jobs/${FAILED_JOB}`,
      ready: ".logs tbody tr",
      open: (page) => page.getByRole("tab", { name: /Logs/ }).click(),
    },
    { name: "workflows", path: "workflows", ready: ".wf-table tbody tr" },
    { name: "workflow", path: `workflows/${CHORD}`, ready: "svg.wf-graph .wf-node" },
    { name: "schedules", path: "schedules", ready: ".schedule-table tbody tr" },
    {
      name: "schedule-editor",
      path: "schedules",
      ready: ".schedule-editor",
      open: (page) =>
        page.locator("tbody tr", { hasText: "heartbeat" }).getByRole("button", { name: "Edit" })
          .click(),
    },
    {
      name: "dlq",
      path: "dlq",
      ready: ".dlq-jobs-table tbody tr",
      open: (page) => page.getByRole("button", { name: "SMTP timeout", exact: true }).click(),
    },
    { name: "migrations", path: "migrations", ready: ".mig-card .uplot" },
  ];
}

/**
 * What is wrong with the page's layout, as sentences (none: all good).
 * Runs in the page.
 */
function layoutProblems(phone: boolean): string[] {
  const problems: string[] = [];
  const describe = (el: Element) => {
    const text = (el.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 40);
    return `${el.tagName.toLowerCase()}.${[...el.classList].join(".")} "${text}"`;
  };
  const scrollsSideways = (el: Element) => {
    const overflow = getComputedStyle(el).overflowX;
    return (overflow === "auto" || overflow === "scroll") && el.scrollWidth > el.clientWidth + 1;
  };

  const page = document.scrollingElement!;
  if (page.scrollWidth > innerWidth) {
    problems.push(`the page scrolls sideways: ${page.scrollWidth} px wide in ${innerWidth}`);
  }

  // Whole on screen: inside the viewport, and inside the padding box of
  // every ancestor that clips it, on the axes that ancestor clips.
  const clippedBy = (el: Element): string | null => {
    const box = el.getBoundingClientRect();
    if (box.left < -0.5 || box.right > innerWidth + 0.5) return "the viewport";
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
      const style = getComputedStyle(up);
      const edge = up.getBoundingClientRect();
      const left = edge.left + up.clientLeft;
      const top = edge.top + up.clientTop;
      if (
        style.overflowX !== "visible" &&
        (box.left < left - 0.5 || box.right > left + up.clientWidth + 0.5)
      ) return describe(up);
      if (
        style.overflowY !== "visible" &&
        (box.top < top - 0.5 || box.bottom > top + up.clientHeight + 0.5)
      ) return describe(up);
    }
    return null;
  };
  for (const button of document.querySelectorAll("button")) {
    if (!button.checkVisibility() || button.closest(".visually-hidden")) continue;
    const clip = clippedBy(button);
    if (clip) problems.push(`button ${describe(button)} is cut off by ${clip}`);
  }

  for (const el of document.querySelectorAll("body *")) {
    if (!scrollsSideways(el)) continue;
    if (phone && el.querySelector("table")) {
      problems.push(`${describe(el)} scrolls its table sideways on a phone`);
    }
    const hint = getComputedStyle(el, "::after");
    if (el.scrollLeft === 0 && (hint.content === "none" || Number(hint.opacity) < 0.5)) {
      problems.push(`${describe(el)} scrolls sideways without a shadow on its right edge`);
    }
  }

  // A table that does not scroll stays inside its card.
  for (const table of document.querySelectorAll("table")) {
    const card = table.closest(".card");
    if (!card || card.contains(table.closest(".table-wrap"))) continue;
    const inner = table.getBoundingClientRect();
    const outer = card.getBoundingClientRect();
    if (inner.left < outer.left - 0.5 || inner.right > outer.right + 0.5) {
      problems.push(`${describe(table)} sticks out of its card`);
    }
  }

  if (phone) {
    // uPlot's legend is a table too; it hides the current-minute series on purpose.
    for (const table of document.querySelectorAll("table:not(.u-legend)")) {
      const cut = [...table.querySelectorAll(":scope > tbody > tr > :is(td, th)")].filter((cell) =>
        (cell.textContent ?? "").trim() && (!cell.checkVisibility() || clippedBy(cell))
      );
      if (cut.length) {
        problems.push(
          `${cut.length} cells of ${describe(table)} are hidden or cut off, as ${describe(cut[0])}`,
        );
      }
    }
  }
  return problems;
}

/** Waits until the page has laid out and painted what it loaded. */
async function settle(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await document.fonts.ready;
    for (let i = 0; i < 3; i++) await new Promise((resolve) => requestAnimationFrame(resolve));
  });
}

/**
 * Opens `view` under `root` at the narrowest viewport (the first view by a load, the
 * others as the board's links do), then resizes the
 * window through the wider ones (as a user widens it: the layout must follow
 * without a reload) and checks each; returns the problems found, and saves a
 * screenshot at each width.
 */
async function checkView(page: Page, root: string, view: View): Promise<string[]> {
  const problems: string[] = [];
  await page.setViewportSize(VIEWPORTS[0]);
  await openInPage(page, `${root}${view.path}`);
  await view.open?.(page);
  await page.locator(view.ready).first().waitFor({ timeout: 10_000 });
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    await settle(page);
    const found = await page.evaluate(layoutProblems, viewport.width <= PHONE);
    await screenshot(page, `${view.name}-${viewport.width}`);
    problems.push(...found.map((problem) => `${view.name} at ${viewport.width} px: ${problem}`));
  }
  return problems;
}

browserTest(
  "every view fits 390, 1280, 1440 and 1920 px: no sideways page, no cut-off buttons",
  (t) =>
    withBoard({}, async ({ page, root }) => {
      for (const view of await views(root)) {
        await t.step(view.name, async () => {
          assert.deepEqual(await checkView(page, root, view), []);
        });
      }
    }),
);

browserTest(
  "a table that scrolls sideways shows a shadow on each edge that hides columns",
  () =>
    withBoard({}, async ({ page, root }) => {
      // Narrow enough that the overview's ten columns cannot fit.
      await page.setViewportSize({ width: 800, height: 800 });
      await page.goto(root);
      const wrap = page.locator(".table-wrap").first();
      await wrap.locator("tbody tr").first().waitFor();
      const edges = () =>
        wrap.evaluate((el) => {
          const shown = (edge: string) => {
            const style = getComputedStyle(el, edge);
            return style.content !== "none" && Number(style.opacity) > 0.5;
          };
          return {
            scrolls: el.scrollWidth > el.clientWidth,
            left: shown("::before"),
            right: shown("::after"),
          };
        });
      assert.deepEqual(await edges(), { scrolls: true, left: false, right: true });
      await wrap.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
      await settle(page);
      assert.deepEqual(await edges(), { scrolls: true, left: true, right: false });

      // A table that fits has no shadows.
      await page.setViewportSize({ width: 1920, height: 1080 });
      await settle(page);
      assert.deepEqual(await edges(), { scrolls: false, left: false, right: false });
    }),
);

browserTest(
  "the login page fits 390, 1280, 1440 and 1920 px",
  () =>
    withBoard({}, async ({ page, redis }) => {
      const board = createBoard(redis.url, {
        auth: {
          cookiePassword: "a-test-cookie-password-of-32-chars!",
          authenticate: () => null,
        },
      });
      const server = await serveTestBoard(board);
      try {
        const login = { name: "login", path: "login", ready: "button[type=submit]" };
        assert.deepEqual(await checkView(page, `${server.url}/board/`, login), []);
      } finally {
        await server.stop();
        await board.close();
      }
    }),
);

browserTest(
  "long task and schedule names and a long error wrap or scroll, never widen the page",
  () =>
    withBoard({}, async ({ page, root, redis }) => {
      const task = `import-${"x".repeat(90)}`;
      const error = `E${"0123456789abcdef".repeat(120)} at ${"/srv/app/".repeat(40)}`;
      const schedule = `sync-${"y".repeat(80)}`;
      const client = await connectClient(redis.url);
      try {
        await writeJob(client, {
          task,
          state: "failed",
          attempt: 1,
          error,
          finishedOn: Date.now(),
        });
        await client.hSet(
          "taskora:schedules",
          schedule,
          JSON.stringify({ task, overlap: false, onMissed: "skip", cron: "*/5 * * * *" }),
        );
        await client.zAdd("taskora:schedules:next", {
          value: schedule,
          score: Date.now() + 60_000,
        });
      } finally {
        await client.close();
      }
      const problems = [
        ...await checkView(page, root, { name: "long-overview", path: "", ready: ".chart canvas" }),
        ...await checkView(page, root, {
          name: "long-task",
          path: `tasks/${task}?state=failed`,
          ready: ".job-table tbody tr",
        }),
        ...await checkView(page, root, {
          name: "long-dlq",
          path: `dlq?task=${task}`,
          ready: ".dlq-jobs-table tbody tr",
          open: (page) => page.locator(".dlq-disclosure").first().click(),
        }),
        ...await checkView(page, root, {
          name: "long-schedules",
          path: "schedules",
          ready: ".schedule-table tbody tr",
        }),
      ];
      assert.deepEqual(problems, []);
    }),
);
