/**
 * The task page and the job page in a real browser, on the real taskora
 * fixture: what they show, the actions they offer (and hide when
 * read-only), and live progress applied in place.
 *
 * Fixture facts used below: task `send-email` holds 5 failed jobs (errors
 * "SMTP timeout" ×3 and "Mailbox full" ×2), 10 completed, 1 delayed and 1
 * cancelled ("operator request"); task `transcode` has one active job at
 * 10 % progress.
 */

import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { connectClient } from "../helpers/redis_server.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { browserTest, openInPage, screenshot, screenshotThemes, withBoard } from "./harness.ts";

/** A failed send-email job: attempt 2 of 2, password in its data, two log lines. */
const FAILED_JOB = "7deea1e0-af8c-4c24-bb84-c89069ee4b0a";
/** The active transcode job, at 10 % progress. */
const ACTIVE_JOB = "d8e1df37-39dd-4863-9508-f7c9bd517880";

/** The rows of the job table on screen. */
const jobRows = (page: Page) => page.locator(".job-table tbody tr");

/** The tab of a state on the task page; its name is the state and its count. */
const stateTab = (page: Page, state: string, count: number) =>
  page.getByRole("tab", { name: new RegExp(`^${state}\\s*${count}$`, "i") });

/** The confirmation dialog's confirm button. */
const confirmButton = (page: Page, label: string) =>
  page.getByRole("dialog").getByRole("button", { name: label, exact: true });

/** Waits for the confirmation to say `message`, confirms with `label`, and waits for the `toast`. */
async function confirmThenToast(
  page: Page,
  { message, label, toast }: { message: string; label: string; toast: string },
): Promise<void> {
  await page.getByRole("dialog").getByText(message).waitFor();
  await confirmButton(page, label).click();
  await page.getByRole("status").getByText(toast).waitFor();
}

browserTest("the task page opens on the failed jobs, with every state's count", async () => {
  await withBoard({}, async ({ page, root }) => {
    await page.goto(`${root}tasks/send-email`);
    await page.getByRole("heading", { name: "send-email" }).waitFor();

    // With failures present, the page opens on them, and says so in the URL.
    await stateTab(page, "failed", 5).and(page.locator("[aria-selected=true]")).waitFor();
    await page.waitForURL(/\/tasks\/send-email\?state=failed$/);
    for (const [state, count] of [["waiting", 0], ["delayed", 1], ["completed", 10]] as const) {
      await stateTab(page, state, count).waitFor();
    }

    await jobRows(page).nth(4).waitFor();
    assert.equal(await jobRows(page).count(), 5);
    assert.equal(await page.locator(".error-text", { hasText: "SMTP timeout" }).count(), 3);
    assert.equal(await page.locator(".error-text", { hasText: "Mailbox full" }).count(), 2);
    await page.getByRole("link", { name: FAILED_JOB }).waitFor();
    await screenshotThemes(page, "task");

    await stateTab(page, "completed", 10).click();
    await page.waitForURL(/\?state=completed$/);
    await jobRows(page).nth(9).waitFor();

    // A deep link opens its own tab.
    await page.goto(`${root}tasks/send-email?state=cancelled`);
    await page.locator(".excerpt", { hasText: "operator request" }).waitFor();
    await page.goto(`${root}tasks/send-email?state=expired`);
    await page.getByText("No expired jobs").waitFor();
  });
});

browserTest(
  "a live progress event moves its row in place, without reloading the list",
  async () => {
    await withBoard({}, async ({ page, root, redis }) => {
      let listLoads = 0;
      page.on("request", (request) => {
        if (request.url().includes("/api/tasks/transcode/jobs")) listLoads++;
      });
      await page.goto(`${root}tasks/transcode`);
      const row = page.locator(`tr[data-job="${ACTIVE_JOB}"]`);
      await row.getByText("10%").waitFor();
      await page.locator(".live-live").waitFor();
      const loadsBefore = listLoads;

      const writer = await connectClient(redis.url);
      try {
        const progress = (jobId: string, value: number) => [
          "XADD",
          "taskora:{transcode}:events",
          "*",
          "event",
          "progress",
          "jobId",
          jobId,
          "value",
          String(value),
        ];
        // The board's stream reader starts with the browser's subscription;
        // write until the first event is seen, however long a loaded machine
        // takes to start it (ten writes 300 ms apart gave it 3 s).
        await waitFor(async () => {
          await writer.sendCommand(progress(ACTIVE_JOB, 73));
          return await row.getByText("73%").isVisible();
        }, { what: "the first progress event on the row", everyMs: 300 });

        // A burst of a thousand events (most for jobs not on screen) is applied
        // in one go and leaves the page responsive.
        const burst = Array.from(
          { length: 1000 },
          (_, i) =>
            i % 100 === 99
              ? progress(ACTIVE_JOB, 80 + Math.floor(i / 100))
              : progress(crypto.randomUUID(), i % 100),
        );
        await Promise.all(burst.map((args) => writer.sendCommand(args)));
        await row.getByText("89%").waitFor();
        // The page still paints; how fast is measured in tests/bench/ui_render.ts, not here.
        await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
      } finally {
        await writer.close();
      }
      assert.equal(listLoads, loadsBefore, "progress never reloads the list");
    });
  },
);

browserTest(
  "the job page shows a failed job's error, timeline, redacted data and logs",
  async () => {
    await withBoard({ redact: ["password"] }, async ({ page, root }) => {
      await page.goto(`${root}jobs/${FAILED_JOB}`);
      await page.getByRole("heading", { name: FAILED_JOB }).waitFor();
      const header = page.locator(".detail-head");
      await header.locator(".state-badge", { hasText: "failed" }).waitFor();
      assert.equal(await header.getByText("2 / 2").count(), 1, "attempt 2 of 2");
      await header.getByText("v1").waitFor();
      await header.getByRole("link", { name: "send-email" }).first().waitFor();

      // A failed job opens on its error.
      await page.getByRole("tab", { name: /Error/, selected: true }).waitFor();
      await page.getByRole("tabpanel").getByText("SMTP timeout").waitFor();

      const timeline = page.locator(".timeline");
      for (const step of ["Created", "Started", "Failed"]) await timeline.getByText(step).waitFor();
      // Attempt 2 of 2 started when its retry was due, 27 ms after the job was created: it
      // waited 0 ms; the 27 ms before it were attempt 1 and its backoff.
      const waited = page.locator(".timeline-facts div", { hasText: "Waited (this attempt)" });
      assert.equal(await waited.locator("dd").innerText(), "0 ms");
      assert.equal(await page.locator(".timeline-facts").getByText("27 ms").count(), 0);
      await screenshotThemes(page, "job");

      await page.getByRole("tab", { name: /Data/ }).click();
      const data = await page.getByRole("tabpanel").textContent();
      assert.match(data ?? "", /password:"\[REDACTED\]"/);
      assert.doesNotMatch(data ?? "", /hunter2/);

      await page.getByRole("tab", { name: /Logs/ }).click();
      await page.locator(".logs tbody tr").nth(1).waitFor();
      assert.equal(await page.locator(".logs tbody tr").count(), 2);
      await page.locator(".log-meta summary").first().click();
      const tree = page.getByRole("tree", { name: "Log meta" }).first();
      await tree.getByRole("button", { name: /nested/ }).click();
      assert.match(await tree.textContent() ?? "", /Password:"\[REDACTED\]"/);

      await page.getByRole("tab", { name: /Progress/ }).click();
      await page.locator(".json-tree").getByText('"render"').waitFor();

      await page.goto(`${root}jobs/no-such-job`);
      await page.getByText("No job with ID no-such-job").waitFor();
      // A workflow node not started yet has an ID and no job: the page names that case too.
      await page.getByText(/names a workflow node that has not started/).waitFor();
    });
  },
);

browserTest("the Logs tab shows a long log's newest lines and pages back through it", async () => {
  await withBoard({}, async ({ page, root, redis }) => {
    // The fixture's two lines ("connecting"), then 250 more: 252 in all.
    const client = await connectClient(redis.url);
    await client.rPush(
      `taskora:{send-email}:${FAILED_JOB}:logs`,
      Array.from(
        { length: 250 },
        (_, i) =>
          JSON.stringify({ level: "info", message: `line ${i}`, timestamp: 1795345688000 + i }),
      ),
    );
    client.destroy();
    const requests: string[] = [];
    page.on("request", (request) => requests.push(new URL(request.url()).pathname));

    await page.goto(`${root}jobs/${FAILED_JOB}`);
    await page.getByRole("tab", { name: /^Logs\s*252$/ }).click();
    const rows = page.locator(".logs tbody tr");
    const pages = page.getByRole("navigation", { name: "Pages" });
    const showing = async (range: string, first: string, last: string) => {
      await pages.getByText(`${range} of 252`).waitFor();
      await rows.first().filter({ hasText: first }).waitFor();
      assert.match(await rows.last().textContent() ?? "", new RegExp(`${last}$`));
    };
    await showing("153–252", "line 150", "line 249");
    assert.equal(await rows.count(), 100, "the newest 100 lines came with the job");
    assert.equal(requests.filter((path) => path.endsWith("/logs")).length, 0);
    for (const width of [390, 1280, 1920]) {
      await page.setViewportSize({ width, height: 900 });
      await screenshot(page, `job-logs-${width}`);
    }

    // Pages are whole in the URL: the one before the newest lines holds line 152, none skipped.
    await pages.getByRole("button", { name: "Previous" }).click();
    await showing("101–200", "line 98", "line 197");
    assert.match(page.url(), /\?page=2&size=100$/);
    await pages.getByRole("button", { name: "Previous" }).click();
    await showing("1–100", "connecting", "line 97");
    assert.equal(await pages.getByRole("button", { name: "Previous" }).isDisabled(), true);
    await pages.getByRole("button", { name: "Next" }).click();
    await showing("101–200", "line 98", "line 197");
    await pages.getByRole("button", { name: "Next" }).click();
    await showing("153–252", "line 150", "line 249");
    assert.equal(await pages.getByRole("button", { name: "Next" }).isDisabled(), true);
    assert.equal(requests.filter((path) => path.endsWith(`/jobs/${FAILED_JOB}/logs`)).length, 3);
  });
});

browserTest(
  "Retry sends a failed job back to waiting; Cancel asks first, with a reason, then cancels",
  async () => {
    await withBoard({}, async ({ page, root }) => {
      await page.goto(`${root}jobs/${FAILED_JOB}`);
      const badge = page.locator(".detail-head .state-badge");
      await badge.getByText("failed").waitFor();
      assert.equal(await page.getByRole("button", { name: "Cancel" }).count(), 0);

      await page.getByRole("button", { name: "Retry", exact: true }).click();
      await page.getByRole("status").getByText("Job sent back to waiting").waitFor();
      await badge.getByText("waiting").waitFor();
      assert.equal(await page.getByRole("button", { name: "Retry", exact: true }).count(), 0);

      // Backing out of the confirmation changes nothing.
      await page.getByRole("button", { name: "Cancel", exact: true }).click();
      await page.getByRole("dialog").getByText("Cancel this job?").waitFor();
      await page.getByRole("dialog").getByRole("button", { name: "Keep job" }).click();
      await page.getByRole("dialog").waitFor({ state: "hidden" });
      await badge.getByText("waiting").waitFor();

      await page.getByRole("button", { name: "Cancel", exact: true }).click();
      await page.getByRole("dialog").getByLabel("Reason").fill("  duplicate of a resent email ");
      await screenshot(page, "job-cancel-dialog");
      await confirmThenToast(page, {
        message: "The waiting job is removed from the queue and will not run.",
        label: "Cancel job",
        toast: "Job cancelled",
      });
      await badge.getByText("cancelled").waitFor();
      await page.getByText("Cancel reason: duplicate of a resent email").waitFor();
      await page.getByRole("button", { name: "Retry", exact: true }).waitFor();
    });
  },
);

browserTest("Clean counts the jobs first and says how many will be deleted", async () => {
  await withBoard({}, async ({ page, root }) => {
    await page.goto(`${root}tasks/send-email?state=completed`);
    await stateTab(page, "completed", 10).waitFor();
    await page.getByRole("button", { name: "Clean…" }).click();
    const form = page.getByRole("form", { name: "Clean finished jobs" });
    await form.getByLabel("Delete jobs that are").selectOption("completed");

    await form.getByLabel("and finished more than").selectOption("custom");
    await form.getByRole("textbox", { name: "Custom age" }).fill("30");
    await form.getByRole("button", { name: "Clean jobs…" }).click();
    await form.getByText("Write an age with its unit").waitFor();

    await form.getByRole("textbox", { name: "Custom age" }).fill("3650d");
    await form.getByRole("button", { name: "Clean jobs…" }).click();
    await form.getByText("Nothing to clean: no completed jobs older than 3650d.").waitFor();

    // The fixture's jobs finished about ten minutes before it was (re)dumped.
    await form.getByRole("textbox", { name: "Custom age" }).fill("5m");
    await form.getByRole("button", { name: "Clean jobs…" }).click();
    await confirmThenToast(page, {
      message: "10 completed jobs older than 5m will be deleted. This cannot be undone.",
      label: "Delete jobs",
      toast: "Removed 10 jobs",
    });
    await stateTab(page, "completed", 0).waitFor();
    await page.getByText("No completed jobs").waitFor();
  });
});

browserTest(
  "an age the API refuses is shown at the age field, found by the answer's param",
  async () => {
    await withBoard({}, async ({ page, root }) => {
      await page.goto(`${root}tasks/send-email?state=completed`);
      await stateTab(page, "completed", 10).waitFor();
      await page.getByRole("button", { name: "Clean…" }).click();
      const form = page.getByRole("form", { name: "Clean finished jobs" });
      await form.getByLabel("and finished more than").selectOption("custom");
      const age = form.getByRole("textbox", { name: "Custom age" });
      // Written as the form asks (digits and a unit), but more milliseconds than the API counts.
      await age.fill("999999999999d");
      await form.getByRole("button", { name: "Clean jobs…" }).click();
      await form.getByRole("alert").getByText("Invalid olderThan").waitFor();
      assert.equal(await age.getAttribute("aria-invalid"), "true");
      assert.equal(await page.locator(".toast").count(), 0, "not a toast away from the field");
      for (const width of [390, 1280, 1920]) {
        await page.setViewportSize({ width, height: 860 });
        await screenshot(page, `clean-age-refused-${width}`);
      }
    });
  },
);

browserTest("Retry all failed says how many, then retries them all", async () => {
  await withBoard({}, async ({ page, root }) => {
    await page.goto(`${root}tasks/send-email`);
    await jobRows(page).nth(4).waitFor();
    await page.getByRole("button", { name: "Retry all failed" }).click();
    await confirmThenToast(page, {
      message: "5 failed jobs of send-email will be sent back to waiting and run again.",
      label: "Retry all",
      toast: "Retried 5 jobs",
    });
    await stateTab(page, "failed", 0).waitFor();
    await stateTab(page, "waiting", 5).waitFor();
    await page.getByText("No failed jobs").waitFor();
    assert.ok(await page.getByRole("button", { name: "Retry all failed" }).isDisabled());
  });
});

browserTest("a read-only board shows no actions on the task and job pages", async () => {
  await withBoard({ readOnly: true }, async ({ page, root }) => {
    await page.goto(`${root}tasks/send-email`);
    await jobRows(page).nth(4).waitFor();
    assert.equal(await page.getByRole("button", { name: "Retry all failed" }).count(), 0);
    assert.equal(await page.getByRole("button", { name: "Clean…" }).count(), 0);
    // Each view after the first is opened as the board's links do: what is checked is the
    // view, not its load.
    await openInPage(page, `${root}tasks/send-email?state=failed`);
    await jobRows(page).first().waitFor();
    assert.equal(await page.locator(".job-table .row-check").count(), 0, "nothing to check");
    assert.equal(await page.locator(".job-table .row-actions").count(), 0);
    await openInPage(page, `${root}tasks/send-email?state=failed&field=error&contains=smtp`);
    await jobRows(page).first().waitFor();
    assert.equal(await page.getByRole("button", { name: /all matching/ }).count(), 0);
    assert.equal(await page.locator(".job-table .row-check").count(), 0);

    await openInPage(page, `${root}jobs/${FAILED_JOB}`);
    await page.getByRole("heading", { name: FAILED_JOB }).waitFor();
    assert.equal(await page.getByRole("button", { name: "Retry", exact: true }).count(), 0);

    await openInPage(page, `${root}jobs/${ACTIVE_JOB}`);
    await page.getByRole("heading", { name: ACTIVE_JOB }).waitFor();
    assert.equal(await page.getByRole("button", { name: "Cancel" }).count(), 0);
  });
});
