/**
 * The task page's cards of issue 26 in a real browser, with a real taskora
 * App and real workers on a throwaway Redis: the Workers card (last taken,
 * lock holders, the live workers' lower bound and its basis); on a board
 * whose clock the test moves, the Drain forecast card; the Mechanics card's
 * scan; the Dispatch form (with the App; without it, a line saying why not).
 * Screenshots at 390, 1280 and 1920 px under tests/e2e/screenshots/ with
 * `SCREENSHOTS=1`.
 */

import assert from "node:assert/strict";
import type { Locator, Page } from "playwright-core";
import { type BoardOptions, createBoard } from "../../mod.ts";
import { createBoardOn } from "../../src/board.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import { epochClock } from "../../src/timers.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { createTaskora, redisAdapter } from "../taskora/harness.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { z } from "zod";
import {
  browserTest,
  freshRedis,
  screenshot,
  screenshotView,
  serveTestBoard,
  sharedBrowser,
  withBoard,
} from "./harness.ts";

const WIDTHS = [390, 1280, 1920];
const MINUTE = 60_000;

/** Screenshots the page, and `card` alone, at each of {@link WIDTHS}. */
async function atWidths(page: Page, name: string, card: Locator): Promise<void> {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page, `${name}-${width}`);
    await screenshotView(card, `${name}-card-${width}`);
  }
  await page.setViewportSize({ width: 1360, height: 860 });
}

// deno-lint-ignore no-explicit-any
type App = any;

/** A real App on a fresh Redis, its board served, a page open; all closed after `fn`. */
async function withAppPage(
  define: (app: App) => void,
  fn: (world: { app: App; page: Page; root: string }) => Promise<void>,
  options: BoardOptions = {},
): Promise<void> {
  const redis = await freshRedis();
  const app = createTaskora({ adapter: redisAdapter(redis.url) });
  define(app);
  const board = createBoard(app, options);
  const server = await serveTestBoard(board);
  const page = await (await sharedBrowser()).newPage({ viewport: { width: 1360, height: 860 } });
  try {
    await fn({ app, page, root: `${server.url}/board/` });
  } finally {
    await page.context().close(); // its event stream would hold up the server's shutdown
    await server.stop();
    await board.close();
    await app.close();
  }
}

browserTest(
  "the Workers card names the live lock holders and their jobs, and at least how many workers run",
  async () => {
    const releases: (() => void)[] = [];
    await withAppPage((app) => {
      app.task("hold", {
        concurrency: 2,
        handler: () => new Promise<string>((resolve) => releases.push(() => resolve("done"))),
      });
    }, async ({ app, page, root }) => {
      try {
        await app.start();
        const hold = [...app.getRegisteredTasks()].find((t: App) => t.name === "hold");
        const ids = [String(await hold.dispatch({})), String(await hold.dispatch({}))];
        await waitFor(() => releases.length === 2, { what: "both jobs running" });
        await page.goto(`${root}tasks/hold`);
        const card = page.locator(".card", { hasText: "Workers" });
        await card.locator(".workers-holders").waitFor();
        const text = await card.textContent() ?? "";
        assert.match(text, /at least 1/);
        assert.match(text, /2 live locks, each worker running at most 2 at once/);
        assert.match(text, /2 jobs/);
        for (const id of ids) {
          assert.equal(await card.locator(`a[href="jobs/${id}"]`).count(), 1, `link to ${id}`);
        }
        await atWidths(page, "mechanics-workers", card);
      } finally {
        releases.splice(0).forEach((release) => release());
      }
    });
  },
);

browserTest(
  "the Drain forecast card gives the arrival and finishing rates and when the backlog drains",
  async () => {
    const timers = new FakeTimers();
    const source = createMemorySource({ now: epochClock(timers) });
    const board = createBoardOn(timers, source);
    const server = await serveTestBoard(board);
    const page = await (await sharedBrowser()).newPage({ viewport: { width: 1360, height: 860 } });
    try {
      const { store } = source;
      for (let i = 0; i < 400; i++) store.enqueue("mail", { id: `job-${i}`, data: {} });
      await timers.tick(MINUTE); // the leader's sample of this minute: 400
      for (let i = 0; i < 300; i++) store.complete("mail", store.claim("mail")!.id, "ok");
      for (let i = 400; i < 460; i++) store.enqueue("mail", { id: `job-${i}`, data: {} });
      await timers.tick(10 * MINUTE);

      await page.goto(`${server.url}/board/tasks/mail`);
      const card = page.locator(".card", { hasText: "Drain forecast" });
      await card.locator(".forecast-outlook").waitFor();
      const text = await card.textContent() ?? "";
      assert.match(text, /160 yet to finish/);
      assert.match(text, /Last 10 min.*drains in about \d+ min/s);
      assert.match(text, /Last 60 min\s*no backlog sample from 60 min ago/);
      await atWidths(page, "mechanics-forecast", card);
    } finally {
      await page.context().close();
      await server.stop();
      await board.close();
    }
  },
);

browserTest(
  "the Mechanics card scans when asked: concurrency keys in use, throttles, debounces, dedup keys, collect buffers",
  async () => {
    const releases: (() => void)[] = [];
    await withAppPage((app) => {
      app.task("mixed", {
        collect: { key: "all", delay: "1m", maxSize: 100, maxWait: "5m" },
        handler: () => "ok",
      });
      app.task("held", {
        concurrency: 5,
        handler: () => new Promise<string>((resolve) => releases.push(() => resolve("done"))),
      });
    }, async ({ app, page, root }) => {
      try {
        await app.start();
        const task = (name: string) =>
          [...app.getRegisteredTasks()].find((t: App) => t.name === name);
        for (const tenant of ["tenant-a", "tenant-b"]) {
          await task("held").dispatch({}, { concurrencyKey: tenant, concurrencyLimit: 1 });
        }
        await waitFor(() => releases.length === 2, { what: "both tenants' jobs running" });
        // Delayed an hour, so that it holds no concurrency slot while the page is read.
        await task("held").dispatch({}, {
          throttle: { key: "api", max: 10, window: "1h" },
          delay: 3_600_000,
        });
        await task("held").dispatch({}, { debounce: { key: "search", delay: "1h" } });
        await task("held").dispatch({}, { deduplicate: { key: "sync" }, delay: 3_600_000 });
        for (let n = 0; n < 3; n++) await task("mixed").dispatch({ n });

        await page.goto(`${root}tasks/held`);
        const card = page.locator(".card", { hasText: "Mechanics" });
        await card.getByRole("button", { name: "Scan" }).click();
        await card.getByText("whole keyspace scanned").waitFor();
        const text = await card.textContent() ?? "";
        assert.match(text, /Concurrency keys in use · 2 jobs running\s*2/);
        assert.match(text, /tenant-a/);
        assert.match(text, /Throttles.*api\s*1/s);
        assert.match(text, /Pending debounces\s*1.*search/s);
        assert.match(text, /Dedup keys\s*1.*sync.*delayed/s);
        await atWidths(page, "mechanics-scan", card);

        await page.goto(`${root}tasks/mixed`);
        await card.getByRole("button", { name: "Scan" }).click();
        await card.getByText("whole keyspace scanned").waitFor();
        assert.match(await card.textContent() ?? "", /Collect buffers\s*1.*all\s*3/s);
      } finally {
        releases.splice(0).forEach((release) => release());
      }
    });
  },
);

browserTest(
  "the Dispatch form checks the data against the task's input schema, and the worker runs the job",
  async () => {
    await withAppPage((app) => {
      app.task("greet", {
        input: z.object({ name: z.string().min(1) }),
        handler: (data: { name: string }) => `hello ${data.name}`,
      });
    }, async ({ app, page, root }) => {
      await app.start();
      await page.goto(`${root}tasks/greet`);
      const card = page.locator(".card", { hasText: "Dispatch" }).last();
      const data = card.locator("textarea");
      await data.fill('{ "name": 3 }');
      await card.getByLabel("Priority").fill("5");
      await card.getByRole("button", { name: "Dispatch" }).click();
      const problem = card.locator(".dispatch-problem");
      await problem.waitFor();
      assert.match(await problem.textContent() ?? "", /input schema: data\.name/);
      await atWidths(page, "mechanics-dispatch-refused", card);

      await data.fill('{ "name": "ada" }');
      await card.getByRole("button", { name: "Dispatch" }).click();
      const link = card.locator(".dispatch-actions a");
      await link.waitFor();
      const jobId = (await link.textContent() ?? "").trim();
      const greet = [...app.getRegisteredTasks()].find((t: App) => t.name === "greet");
      assert.ok(greet);
      await waitFor(async () => {
        const response = await fetch(`${root}api/jobs/${jobId}`);
        const job = await response.json();
        return job.state === "completed" && job.result === "hello ada";
      }, { what: "the worker to run the dispatched job" });
      await atWidths(page, "mechanics-dispatch", card);
    });
  },
);

browserTest(
  "the Dispatch form says a schema checks the data only when the task has one, takes a delay as a duration, and tells a collect task's options apart",
  async () => {
    await withAppPage((app) => {
      app.task("plain", { handler: () => "ok" });
      app.task("digest", {
        collect: { key: "all", delay: "1h", maxSize: 100 },
        handler: (items: unknown[]) => items.length,
      });
    }, async ({ page, root }) => {
      await page.goto(`${root}tasks/plain`);
      const card = page.locator(".card", { hasText: "Dispatch" }).last();
      await card.locator(".dispatch-form").waitFor();
      assert.match(await card.textContent() ?? "", /declares no input schema/);
      assert.ok(!/checked against/.test(await card.textContent() ?? ""));
      await card.getByLabel("Priority").fill("901");
      await card.getByRole("button", { name: "Dispatch" }).click();
      const problem = card.locator(".dispatch-problem");
      await problem.waitFor();
      assert.match(await problem.textContent() ?? "", /at most 900/);
      await card.getByLabel("Priority").fill("");
      await card.getByLabel("Delay").fill("5m");
      await card.getByRole("button", { name: "Dispatch" }).click();
      const link = card.locator(".dispatch-actions a");
      await link.waitFor();
      const job = await (await fetch(`${root}api/jobs/${(await link.textContent())!.trim()}`))
        .json();
      assert.equal(job.state, "delayed");

      await page.goto(`${root}tasks/digest`);
      const collect = page.locator(".card", { hasText: "Dispatch" }).last();
      await collect.locator(".dispatch-collect").waitFor();
      assert.match(await collect.textContent() ?? "", /buffer's flush job/);
      assert.equal(await collect.getByLabel("Priority").count(), 0);
      await collect.getByRole("button", { name: "Dispatch" }).click();
      await collect.locator(".dispatch-actions", { hasText: "Flush job" }).locator("a").waitFor();
      await atWidths(page, "mechanics-dispatch-collect", collect);
    });
  },
);

browserTest(
  "without the App no Dispatch form: one line says it needs createBoard(app)",
  async () => {
    const redis = await freshRedis();
    const app = createTaskora({ adapter: redisAdapter(redis.url) });
    app.task("greet", { handler: () => "ok" });
    await app.start();
    const board = createBoard(redis.url);
    const server = await serveTestBoard(board);
    const page = await (await sharedBrowser()).newPage({ viewport: { width: 1360, height: 860 } });
    try {
      const greet = [...app.getRegisteredTasks()].find((t: App) => t.name === "greet");
      await greet.dispatch({});
      await page.goto(`${server.url}/board/tasks/greet`);
      const line = page.locator(".no-app", { hasText: "a dispatch form" });
      await line.getByText("createBoard(app)").waitFor();
      assert.equal(await page.locator(".dispatch-form").count(), 0);
    } finally {
      await page.context().close();
      await server.stop();
      await board.close();
      await app.close();
    }
  },
);

browserTest(
  "the Dispatch form is shown to an operator, not to a viewer (no job.dispatch)",
  async () => {
    for (const role of ["viewer", "operator"]) {
      await withAppPage(
        (app) => app.task("greet", { handler: () => "ok" }),
        async ({ page, root }) => {
          await page.goto(`${root}tasks/greet`);
          await page.locator(".card", { hasText: "Mechanics" }).waitFor();
          await page.locator(".card", { hasText: "Definition" }).locator(".definition-facts")
            .waitFor();
          // The form reads the task's definition itself: an operator's appears once it has.
          if (role === "operator") await page.locator(".dispatch-form").waitFor();
          const forms = await page.locator(".dispatch-form").count();
          assert.equal(forms, role === "operator" ? 1 : 0, role);
        },
        { auth: () => ({ name: role, role }) },
      );
    }
  },
);

browserTest(
  "the Workers and Drain forecast cards say when a read fails, before any figure and after",
  async () => {
    // Stats frames every 500 ms (the least), not 3 s: the cards re-read on the next one.
    await withBoard({ statsInterval: 500 }, async ({ page, root }) => {
      let failing = false;
      await page.route(
        /\/api\/tasks\/send-email\/(workers|forecast)$/,
        (route) =>
          failing
            ? route.fulfill({
              status: 503,
              contentType: "application/json",
              body: JSON.stringify({ error: "Redis is unreachable", code: "STORE_UNAVAILABLE" }),
            })
            : route.continue(),
      );
      const card = (title: string) =>
        page.locator("section.card", {
          has: page.getByRole("heading", { name: title, exact: true }),
        });
      const sayUnreachable = async () => {
        for (const title of ["Workers", "Drain forecast"]) {
          const alert = card(title).getByRole("alert");
          await alert.waitFor();
          assert.match(await alert.innerText(), /Redis unreachable/, title);
        }
      };
      await page.goto(`${root}tasks/send-email`);
      await card("Drain forecast").locator(".forecast-table").waitFor();
      await card("Workers").locator(".workers-facts, p.muted").first().waitFor();

      // The figures stay, but a refresh that failed says they are not current:
      // a retry changes send-email's counts, and the next stats frame re-reads both cards.
      failing = true;
      const res = await fetch(`${root}api/tasks/send-email/retry-all`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: new URL(root).origin },
        body: "{}",
      });
      assert.equal(res.status, 200, await res.text());
      await sayUnreachable();
      assert.equal(await card("Drain forecast").locator(".forecast-table").count(), 1);

      await page.reload();
      await sayUnreachable();
    });
  },
);

browserTest("the Workers and Drain forecast cards say when their figures were read", async () => {
  await withBoard({}, async ({ page, root }) => {
    await page.goto(`${root}tasks/send-email`);
    for (const title of ["Workers", "Drain forecast"]) {
      const head = page.locator("section.card", {
        has: page.getByRole("heading", { name: title, exact: true }),
      }).locator(".card-head");
      await head.locator("time").waitFor();
      assert.match(await head.innerText(), /read (now|\d+s ago)/, title);
    }
  });
});

browserTest(
  "a Mechanics scan that read nothing shows no empty kinds: a source that cannot scan says so, a failed read says it failed",
  async () => {
    // A source that keeps no mechanism keys (the memory source): the reason, and no button.
    const source = createMemorySource();
    source.store.enqueue("send-email", { id: "memory-job", data: {} });
    const board = createBoard(source);
    const server = await serveTestBoard(board);
    const page = await (await sharedBrowser()).newPage({ viewport: { width: 1360, height: 860 } });
    const card = page.locator("section.card", {
      has: page.getByRole("heading", { name: "Mechanics", exact: true }),
    });
    try {
      await page.goto(`${server.url}/board/tasks/send-email`);
      await card.getByRole("button", { name: "Scan" }).click();
      await card.getByText("keeps no mechanism keys to scan").waitFor();
      assert.equal(await card.getByRole("alert").count(), 0, "no failure: nothing went wrong");
      assert.equal(await card.locator(".mechanics-kind").count(), 0, "no kind shown as none");
      assert.equal(await card.getByRole("button").count(), 0, "no Scan again: it cannot work");
    } finally {
      await page.context().close();
      await server.stop();
      await source.close();
    }

    // A failed first step: the failure, and no kind shown as none.
    await withBoard({}, async ({ page, root }) => {
      await page.route(/\/api\/tasks\/send-email\/mechanics/, (route) =>
        route.fulfill({
          status: 503,
          contentType: "application/json",
          body: JSON.stringify({ error: "Redis is unreachable", code: "STORE_UNAVAILABLE" }),
        }));
      await page.goto(`${root}tasks/send-email`);
      const card = page.locator("section.card", {
        has: page.getByRole("heading", { name: "Mechanics", exact: true }),
      });
      await card.getByRole("button", { name: "Scan" }).click();
      await card.getByRole("alert").waitFor();
      assert.equal(await card.locator(".mechanics-kind").count(), 0);
      await card.getByRole("button", { name: "Scan again" }).waitFor();
    });
  },
);
