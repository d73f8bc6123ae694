/**
 * Schedules, the dead-letter queue and migrations in a real browser, on real
 * Redis holding the taskora fixture: three schedules (`heartbeat` every
 * second and overdue, `nightly-report` on cron, `weekly-cleanup` paused),
 * five failed `send-email` jobs (3 × "SMTP timeout", 2 × "Mailbox full"),
 * and `resize-image` jobs delayed on v1 and v2 while the task is at v3.
 */

import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { TRIGGER_DISPATCH } from "../../src/source/redis/action_scripts.ts";
import { taskKeys } from "../../src/source/wire/keys.ts";
import { pausableSource } from "../helpers/pause_after_entry.ts";
import { connectClient, type TestRedis } from "../helpers/redis_server.ts";
import { browserTest, openInPage, screenshotThemes, withBoard } from "./harness.ts";

const HEARTBEAT_LAST_JOB = "49e833ba-6ef4-41a3-9c4a-827a99ffcd1b";

/** A send-email job's hash, failed-set score and newest events, to say what happened to it. */
async function jobTrace(redis: TestRedis, id: string): Promise<string> {
  const client = await connectClient(redis.url);
  try {
    const keys = taskKeys("send-email");
    const hash = await client.hGetAll(`${keys.jobPrefix}${id}`);
    const score = await client.zScore(keys.failed, id);
    const events = await client.sendCommand(["XREVRANGE", keys.events, "+", "-", "COUNT", "200"]);
    const mine = (events as unknown as [string, string[]][]).filter(([, fields]) =>
      fields.includes(id)
    )
      .slice(0, 5);
    return JSON.stringify({ id, hash, score, events: mine, now: Date.now() });
  } finally {
    await client.close();
  }
}

/** The table row that names `text` (a schedule, an error). */
function row(page: Page, text: string) {
  return page.locator("tbody tr", { hasText: text }).first();
}

/** Confirms the open dialog after checking what it says. */
async function confirm(page: Page, says: RegExp, button: string): Promise<void> {
  const dialog = page.getByRole("dialog");
  await dialog.waitFor();
  assert.match(await dialog.textContent() ?? "", says);
  await dialog.getByRole("button", { name: button }).click();
}

/**
 * Waits for a toast with this text, and dismisses it: a toast stays 4 s, so without that, the
 * wait after a second action saying the same ("Retried 1 job") found the first one's toast at
 * once, before the second action had ended (or when it had failed).
 */
async function toast(page: Page, text: string | RegExp): Promise<string> {
  const notice = page.locator(".toast", { hasText: text }).first();
  await notice.waitFor();
  const said = await notice.textContent() ?? "";
  await notice.getByRole("button", { name: "Dismiss" }).click();
  await notice.waitFor({ state: "detached" });
  return said;
}

browserTest("schedules list the fixture's schedules with a live next-run countdown", async () => {
  await withBoard({}, async ({ page, root }) => {
    await page.goto(`${root}schedules`);
    const heartbeat = row(page, "heartbeat");
    await heartbeat.waitFor();
    assert.equal(await page.locator(".schedule-table > tbody > tr").count(), 3);

    const heartbeatText = await heartbeat.textContent() ?? "";
    assert.match(heartbeatText, /runs report/);
    assert.match(heartbeatText, /Every second/);
    assert.match(heartbeatText, /overdue/, "its next run is in the fixture's past");
    assert.match(heartbeatText, /completed/i, "the last run's job completed");
    assert.equal(
      await heartbeat.getByRole("link", { name: HEARTBEAT_LAST_JOB.slice(0, 8) })
        .getAttribute("href"),
      `jobs/${HEARTBEAT_LAST_JOB}`,
    );
    assert.match(await row(page, "nightly-report").textContent() ?? "", /0 3 \* \* \*/);
    const weekly = row(page, "weekly-cleanup");
    assert.match(await weekly.textContent() ?? "", /Paused.*Every 7 days.*none while paused/);

    // Resumed, it runs a week from now, and the countdown ticks.
    await weekly.getByRole("button", { name: "Resume" }).click();
    await toast(page, "Resumed weekly-cleanup");
    const countdown = weekly.locator(".schedule-countdown");
    await countdown.filter({ hasText: /^in 6d 23:59:\d\d$/ }).waitFor();
    const before = await countdown.textContent();
    await page.waitForFunction(
      ([el, text]) => (el as Element).textContent !== text,
      [await countdown.elementHandle(), before] as const,
    );
    await screenshotThemes(page, "schedules");

    await heartbeat.getByRole("button", { name: "Pause" }).click();
    await toast(page, "Paused heartbeat");
    await heartbeat.filter({ hasText: "none while paused" }).waitFor();
    assert.match(await heartbeat.textContent() ?? "", /Paused/);
  });
});

browserTest("run now, edit (errors inline, next to the field) and delete a schedule", async () => {
  await withBoard({}, async ({ page, root }) => {
    await page.goto(`${root}schedules`);
    const nightly = row(page, "nightly-report");
    await nightly.waitFor();

    await nightly.getByRole("button", { name: "Run now" }).click();
    await confirm(page, /One report job is dispatched now/, "Run now");
    const triggered = await toast(page, "Triggered nightly-report");
    const jobId = /job ([0-9a-f-]{36})/.exec(triggered)?.[1];
    assert.ok(jobId, "the toast names the new job");
    assert.match(
      triggered,
      /with no TTL \(it never expires\)/,
      "a board on a URL sets no expireAt",
    );
    assert.equal(
      await nightly.getByRole("link", { name: jobId.slice(0, 8) }).getAttribute("href"),
      `jobs/${jobId}`,
    );
    const job = await (await fetch(`${root}api/jobs/${jobId}`)).json();
    assert.deepEqual([job.task, job.state, job.data], ["report", "waiting", { scope: "all" }]);

    // An invalid cron: the API's 400 shows under the Cron field.
    const heartbeat = row(page, "heartbeat");
    await heartbeat.getByRole("button", { name: "Edit" }).click();
    const form = page.getByRole("form", { name: "Edit schedule heartbeat" });
    assert.equal(await form.getByLabel("Every").inputValue(), "1s");
    await form.getByLabel("On a cron expression").check();
    const cron = form.getByRole("textbox", { name: "Cron" });
    await cron.fill("every tuesday");
    await form.getByRole("button", { name: "Save changes" }).click();
    await form.locator(".field-error", { hasText: /^Invalid cron: "every tuesday"/ }).waitFor();
    assert.equal(await cron.getAttribute("aria-invalid"), "true");
    assert.equal(await cron.evaluate((el) => el === document.activeElement), true);
    const described = await cron.getAttribute("aria-describedby") ?? "";
    assert.match(
      await page.locator(`[id="${described.split(" ").pop()}"]`).textContent() ?? "",
      /is not a valid schedule/,
      "the cron input is described by its error",
    );

    // Data that is not JSON never leaves the browser.
    await form.getByLabel("At a fixed interval").check();
    await form.getByLabel("Every").fill("5m");
    const data = form.getByLabel("Data (JSON)");
    await data.fill("{ scope: all }");
    await form.getByRole("button", { name: "Save changes" }).click();
    await form.locator(".field-error", { hasText: /^Not valid JSON/ }).waitFor();
    assert.equal(await data.getAttribute("aria-invalid"), "true");

    await data.fill('{ "scope": "eu" }');
    await form.getByRole("button", { name: "Save changes" }).click();
    await toast(page, "Saved schedule heartbeat");
    await heartbeat.filter({ hasText: /Every 5 minutes/ }).waitFor();
    await heartbeat.locator(".schedule-countdown", { hasText: /^in 0[45]:\d\d$/ }).waitFor();
    const saved = (await (await fetch(`${root}api/schedules`)).json())
      .find((s: { name: string }) => s.name === "heartbeat");
    assert.deepEqual([saved.config.every, saved.config.data], [300_000, { scope: "eu" }]);

    // Delete asks first; cancelling keeps the schedule.
    const weekly = row(page, "weekly-cleanup");
    await weekly.getByRole("button", { name: "Delete" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Keep schedule" }).click();
    assert.equal(await weekly.isVisible(), true);
    await weekly.getByRole("button", { name: "Delete" }).click();
    await confirm(page, /cannot be undone/, "Delete schedule");
    await toast(page, "Deleted schedule weekly-cleanup");
    await page.locator("tbody tr", { hasText: "weekly-cleanup" }).waitFor({ state: "detached" });
    assert.equal(await page.locator(".schedule-table > tbody > tr").count(), 2);
  });
});

browserTest(
  "Run now left unconfirmed (Redis pausing writes) says to check; the retry finds its job",
  async () => {
    let pauseAfterEntry = () => {};
    const source = (redis: TestRedis) => {
      const pausable = pausableSource(redis.url);
      pauseAfterEntry = () => pausable.pauseAfterEntry(30_000);
      return pausable.source;
    };
    await withBoard({ source }, async ({ page, root, redis }) => {
      const admin = await connectClient(redis.url);
      const report = taskKeys("report");
      try {
        // Loaded now, so the paused call is the dispatch itself, not a NOSCRIPT.
        await admin.scriptLoad(TRIGGER_DISPATCH.source);
        await page.goto(`${root}schedules`);
        const nightly = row(page, "nightly-report");
        await nightly.waitFor();
        const waiting = await admin.lLen(report.wait);

        pauseAfterEntry();
        await nightly.getByRole("button", { name: "Run now" }).click();
        await confirm(page, /One report job is dispatched now/, "Run now");
        const warning = await toast(page, /^Not confirmed/);
        assert.match(warning, /may have been.*Check before you try again.*OUTCOME_UNKNOWN/);
        await admin.sendCommand(["CLIENT", "UNPAUSE"]);
        // Redis runs the paused dispatch once writes resume.
        for (let i = 0; i < 100 && await admin.lLen(report.wait) === waiting; i++) {
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        const [dispatched] = await admin.lRange(report.wait, 0, 0);

        await nightly.getByRole("button", { name: "Run now" }).click();
        await confirm(page, /last try was not confirmed/, "Run now");
        assert.match(await toast(page, /already been triggered/), new RegExp(`job ${dispatched}`));
        assert.equal(await admin.lLen(report.wait), waiting + 1, "one job for the two tries");

        // A new click is a new run.
        await nightly.getByRole("button", { name: "Run now" }).click();
        await confirm(page, /One report job is dispatched now/, "Run now");
        await toast(page, "Triggered nightly-report");
        assert.equal(await admin.lLen(report.wait), waiting + 2);
      } finally {
        await admin.sendCommand(["CLIENT", "UNPAUSE"]);
        admin.destroy();
      }
    });
  },
);

browserTest(
  "the DLQ groups failures by error, most frequent first; retries change the counts",
  async () => {
    await withBoard({}, async ({ page, root, redis }) => {
      await page.goto(`${root}dlq`);
      const groups = page.locator(".dlq-group");
      await groups.first().waitFor();
      assert.deepEqual(
        await groups.evaluateAll((rows) =>
          rows.map((
            r,
          ) => [
            r.querySelector(".dlq-sample")?.textContent,
            r.querySelector(".dlq-count")?.textContent,
          ])
        ),
        [["SMTP timeout", "3"], ["Mailbox full", "2"]],
      );
      const failedJobs = page.locator(".counter.state-failed .counter-value");
      assert.equal(await failedJobs.textContent(), "5");

      // Opening a group lists only its jobs.
      const smtp = page.getByRole("button", { name: "SMTP timeout", exact: true });
      assert.equal(await smtp.getAttribute("aria-expanded"), "false");
      await smtp.click();
      assert.equal(await smtp.getAttribute("aria-expanded"), "true");
      const jobs = page.locator(".dlq-jobs-table tbody tr");
      await jobs.first().waitFor();
      assert.equal(await jobs.count(), 3);
      assert.deepEqual(
        new Set(await jobs.locator(".dlq-job-error").allTextContents()),
        new Set(["SMTP timeout"]),
      );
      await screenshotThemes(page, "dlq");

      await jobs.first().getByRole("button", { name: /^Retry job / }).click();
      await confirm(page, /1 failed send-email job goes back to waiting/, "Retry 1 job");
      await toast(page, "Retried 1 job");
      await failedJobs.filter({ hasText: /^4$/ }).waitFor();
      await row(page, "SMTP timeout").locator(".dlq-count", { hasText: /^2$/ }).waitFor();
      await jobs.nth(2).waitFor({ state: "detached" });

      // A checked job is retried through a bulk operation of its task, counted first.
      await jobs.first().locator(".row-check").click();
      const checkedBar = page.getByRole("region", { name: "Selected jobs" });
      await checkedBar.getByText("1 selected").waitFor();
      await screenshotThemes(page, "dlq-checked");
      // Once in the e2e group no toast came in 30 s: the operation's answers say where it stood.
      const answers: string[] = [];
      page.on("response", async (response) => {
        if (!/\/api\/(bulk|operations)/.test(response.url())) return;
        answers.push(
          `${response.status()} ${(await response.text().catch(() => "")).slice(0, 400)}`,
        );
      });
      await checkedBar.getByRole("button", { name: "Retry 1 job" }).click();
      await confirm(page, /The 1 job checked goes back to waiting/, "Retry 1 job");
      await toast(page, "Retried 1 job").catch(async (error) => {
        // Once the step skipped the job as finished after the operation's start, its state
        // "failed": what Redis holds of it says who wrote that.
        const skipped = [...answers.join(" ").matchAll(/"id":"([0-9a-f-]{36})","state"/g)];
        const held = await Promise.all(skipped.map(([, id]) => jobTrace(redis, id)));
        throw new Error(
          `${error.message}; the operation's last answers: ${answers.slice(-3)}; ` +
            `what Redis holds of the skipped jobs: ${held.join("; ")}`,
        );
      });
      await failedJobs.filter({ hasText: /^3$/ }).waitFor();
      await row(page, "SMTP timeout").locator(".dlq-count", { hasText: /^1$/ }).waitFor();
      await checkedBar.waitFor({ state: "detached" });

      await row(page, "Mailbox full").getByRole("button", { name: /^Retry 2 jobs/ }).click();
      await confirm(page, /2 jobs failing with “Mailbox full”/, "Retry 2 jobs");
      await toast(page, "Retried 2 jobs");
      await page.locator(".dlq-group", { hasText: "Mailbox full" }).waitFor({ state: "detached" });
      await failedJobs.filter({ hasText: /^1$/ }).waitFor();

      await page.getByRole("button", { name: "Retry all 1 job" }).click();
      await confirm(page, /Every failed job of every task \(1 job\)/, "Retry 1 job");
      await toast(page, "Retried 1 job");
      await page.getByText("No failed jobs — the dead-letter queue is empty").waitFor();
      await screenshotThemes(page, "dlq-empty");
    });
  },
);

browserTest(
  "a checked job's bulk retry that stopped says so and why, not 'Retried 0 jobs'",
  async () => {
    await withBoard({}, async ({ page, root }) => {
      // The operation's end as a store that stopped answering would leave it: failed, nothing done.
      await page.route(/\/api\/operations\/[^/]+$/, async (route) => {
        const answer = await route.fetch();
        const operation = await answer.json();
        await route.fulfill({
          response: answer,
          json: {
            ...operation,
            status: "failed",
            done: 0,
            skipped: 0,
            error: "Redis did not answer within 2000 ms",
            errorCode: "STORE_UNAVAILABLE",
          },
        });
      });
      await page.goto(`${root}dlq`);
      await page.getByRole("button", { name: "SMTP timeout", exact: true }).click();
      const jobs = page.locator(".dlq-jobs-table tbody tr");
      await jobs.first().locator(".row-check").click();
      const checkedBar = page.getByRole("region", { name: "Selected jobs" });
      await checkedBar.getByRole("button", { name: "Retry 1 job" }).click();
      await confirm(page, /The 1 job checked goes back to waiting/, "Retry 1 job");
      const said = await toast(page, /Stopped|Retried/);
      assert.match(said, /^Stopped: 0 jobs retried\. Redis did not answer within 2000 ms/);
    });
  },
);

browserTest("the DLQ filters by task through the URL", async () => {
  await withBoard({}, async ({ page, root }) => {
    await page.goto(`${root}dlq`);
    const filter = page.getByLabel("Task");
    await filter.locator("option", { hasText: "send-email (5)" }).waitFor({ state: "attached" });
    const filtered = page.waitForResponse((res) => res.url().includes("api/dlq?task=send-email"));
    await filter.selectOption("send-email");
    await page.waitForURL(/\/dlq\?task=send-email$/);
    await filtered;
    await page.locator(".dlq-group").nth(1).waitFor();
    assert.equal(await page.locator(".dlq-group").count(), 2);
    await page.goto(`${root}dlq?task=report`);
    await page.getByText("No failed jobs in report.").waitFor();
  });
});

browserTest(
  "migrations show pending jobs per version and whether `since` can be raised",
  async () => {
    await withBoard({}, async ({ page, root }) => {
      await page.goto(`${root}migrations`);
      const resize = page.locator(".mig-card", { hasText: "resize-image" });
      await resize.locator("canvas").first().waitFor();
      assert.deepEqual(
        await resize.locator(".mig-table tbody tr").evaluateAll((rows) =>
          rows.map((r) => [...r.children].map((cell) => cell.textContent?.trim()))
        ),
        [
          ["v1", "0", "2", "0", "2"],
          ["v2", "0", "3", "0", "3"],
          ["v3 current", "0", "0", "0", "0"],
        ],
      );
      const resizeText = await resize.textContent() ?? "";
      assert.match(resizeText, /Current versionv3/);
      assert.match(resizeText, /not recorded in the store/);
      assert.match(resizeText, /Raising since above v1 would strand 2 jobs still on v1\./);
      assert.match(resizeText, /Blocked above v1/);
      assert.match(
        await page.locator(".mig-card", { hasText: "send-email" }).textContent() ?? "",
        /Safe to raise since up to v1: no pending job is older\./,
      );
      // Blocked tasks come first.
      assert.equal(
        await page.locator(".mig-card .card-title").first().textContent(),
        "resize-image",
      );
      const drained = page.locator(".mig-drained li", { hasText: "fetch-user" });
      assert.match(await drained.textContent() ?? "", /v1.*No pending jobs/);
      assert.equal(await page.locator(".mig-drained li").count(), 7);
      await screenshotThemes(page, "migrations");
    });
  },
);

browserTest(
  "a read-only board shows schedules, DLQ and migrations without action buttons",
  async () => {
    await withBoard({ readOnly: true }, async ({ page, root }) => {
      await page.goto(`${root}schedules`);
      await row(page, "heartbeat").waitFor();
      assert.equal(await page.locator(".content .card button").count(), 0);
      assert.equal(await page.getByRole("columnheader", { name: "Actions" }).count(), 0);

      // Moved to as the board's links do: what is checked is each view, not its load.
      await openInPage(page, `${root}dlq`);
      await page.getByRole("button", { name: "SMTP timeout", exact: true }).click();
      await page.locator(".dlq-jobs-table tbody tr").first().waitFor();
      assert.equal(await page.getByRole("button", { name: /Retry/ }).count(), 0);

      await openInPage(page, `${root}migrations`);
      await page.locator(".mig-card").first().waitFor();
      assert.equal(await page.locator(".content button").count(), 0);
    });
  },
);

browserTest("on a phone the DLQ's last failure shows whole, not cut short", async () => {
  await withBoard({}, async ({ page, root }) => {
    await page.setViewportSize({ width: 390, height: 900 });
    await page.goto(`${root}dlq`);
    const value = page.locator(".counter", { hasText: "Last failure" }).locator(".counter-value");
    await value.locator("time").waitFor();
    const { text, clipped } = await value.evaluate((el) => ({
      text: el.textContent,
      clipped: el.scrollWidth > el.clientWidth,
    }));
    assert.ok(!clipped, `"${text}" is cut short`);
  });
});

browserTest("a schedule named with spaces still names its next runs list", async () => {
  await withBoard({}, async ({ page, root, redis }) => {
    const NAME = "nightly settlement export";
    const client = await connectClient(redis.url);
    try {
      await client.hSet(
        "taskora:schedules",
        NAME,
        JSON.stringify({ task: "send-email", overlap: false, onMissed: "skip", cron: "0 3 * * *" }),
      );
      await client.zAdd("taskora:schedules:next", { value: NAME, score: Date.now() + 60_000 });
    } finally {
      await client.close();
    }
    await page.goto(`${root}schedules`);
    const host = page.getByRole("row", { name: new RegExp(NAME) }).locator(
      ".schedule-upcoming-host",
    );
    await host.waitFor();
    const described = await host.evaluate((el) => {
      const ids = (el.getAttribute("aria-describedby") ?? "").split(/\s+/);
      return ids.map((id) => document.getElementById(id)?.getAttribute("role") ?? null);
    });
    assert.deepEqual(described, ["tooltip"]);
  });
});
