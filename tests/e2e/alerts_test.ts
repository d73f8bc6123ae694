/**
 * The Alerts page against a real board on Redis holding the taskora fixture,
 * with a rule that really fires (send-email has 5 failed jobs; the rule fires
 * above 4) and a local receiver for its notices: the page lists the rules and
 * where they stand, the top bar, the sidebar and the overview's row say what
 * fires, silences are added and ended, a test notice reaches the receiver,
 * stored rules are made, changed and deleted, and a user not allowed
 * `alerts.update` sees none of those controls.
 *
 * The boards' evaluation passes are held ({@link HeldInterval}): a test runs
 * each when it says, where waiting for the next on the wall clock cost 5 s or
 * more each; the board's other work, the page's and the webhooks' run as
 * they would.
 */

import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import type { AlertHistoryEntry, AlertsFile } from "../../src/contract/alerts.ts";
import { AlertRuleSchema } from "../../src/alerts/config.ts";
import { createRedisSource } from "../../src/source/redis/mod.ts";
import { HeldInterval } from "../helpers/held_interval.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { webhookReceiver } from "../helpers/webhook_receiver.ts";
import { browserTest, screenshot, withBoard } from "./harness.ts";

const RULE = "mail failing";

/** How often the boards evaluate: a period no other timer of a board has, so its pass is the one held. */
const EVERY_MS = 13_000;

/** A `failed` rule on send-email that fires at the first evaluation, and one that never does. */
function alertsTo(url: string, retries = 3): AlertsFile {
  return {
    evaluateEvery: `${EVERY_MS / 1000}s`,
    sinks: [{ name: "ops", type: "webhook", url, secret: "s".repeat(32), retries }],
    rules: [
      { name: RULE, kind: "failed", tasks: ["send-email"], threshold: 4, sinks: ["ops"] },
      { name: "backlog huge", kind: "backlog", threshold: 1_000_000, sinks: ["ops"] },
    ],
  };
}

/** When the board last evaluated its rules (`asOf`), or null before its first pass. */
async function evaluatedAt(root: string): Promise<number | null> {
  const res = await fetch(`${root}api/alerts`);
  return (await res.json()).asOf;
}

/**
 * Runs the board's evaluation pass and waits until a pass begun after this
 * call has written its states, so it read what the test changed before. A
 * run while the last pass still goes on is skipped, as a late tick is, and a
 * pass before the board took the alerts lease evaluates nothing: it runs
 * again until one has.
 */
async function evaluation(passes: HeldInterval, root: string): Promise<void> {
  const from = Date.now();
  await waitFor(async () => {
    passes.run();
    // A board's clock on timers of a test's counts fractions of a ms: whole ones are compared.
    return Math.floor(await evaluatedAt(root) ?? 0) > from;
  }, { what: "an evaluation pass" });
}

/**
 * Waits until the board's history holds what `written` looks for (a pass's
 * notices are sent, and their outcome kept, after the pass), then moves the
 * page's clock (`page.clock`, installed before the page was opened) past its
 * read after an evaluation, due one period and a second after it.
 */
async function pageReadsHistory(
  page: Page,
  root: string,
  written: (entries: AlertHistoryEntry[]) => boolean,
): Promise<void> {
  await waitFor(async () => {
    const res = await fetch(`${root}api/alerts/history`);
    return written((await res.json()).entries);
  }, { what: "the notices' outcomes in the history" });
  await page.clock.runFor(EVERY_MS + 1000);
}

/** Whether an entry of `entries` has the delivery `outcome` to `sink`. */
function outcomeKept(sink: string, outcome: "delivered" | "failed") {
  return (entries: AlertHistoryEntry[]) =>
    entries.some((entry) =>
      entry.deliveries.some((delivery) => delivery.sink === sink && delivery.outcome === outcome)
    );
}

/**
 * Opens the Alerts page on the page's clock (`page.clock`), runs the first
 * evaluation once the page has read the rules, and waits for the firing
 * rule's row to say so.
 */
async function openFiring(page: Page, root: string, passes: HeldInterval) {
  await page.clock.install();
  await page.goto(`${root}alerts`);
  const row = page.locator(".alerts-rules").getByRole("row", { name: new RegExp(RULE) });
  await row.waitFor();
  await evaluation(passes, root);
  await row.getByText("firing", { exact: true }).waitFor();
  return row;
}

/**
 * Screenshots of the page at a phone's, a laptop's and a wide screen's
 * width, each checked not to scroll sideways.
 */
async function screenshots(page: Page, name: string) {
  for (const width of [390, 1280, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    // Once laid out at the new width: a chart follows its box a frame or more later (once, right
    // after the switch from 1920 px, the overview's chart still was 1,639 px wide at 390).
    const overflow = () =>
      page.evaluate(() =>
        document.documentElement.scrollWidth - document.documentElement.clientWidth
      );
    await waitFor(async () => await overflow() === 0, {
      what: `${name} at ${width} px not to scroll sideways`,
      limitMs: 5_000,
    }).catch(() => {});
    assert.equal(await overflow(), 0, `${name} at ${width} px scrolls sideways`);
    await screenshot(page, `${name}-${width}`);
  }
}

browserTest(
  "the page lists the rules as they stand; the top bar, sidebar and overview count the firing one",
  async () => {
    const hook = webhookReceiver();
    const passes = new HeldInterval(EVERY_MS);
    try {
      await withBoard({ alerts: alertsTo(hook.url), timers: passes }, async ({ page, root }) => {
        const row = await openFiring(page, root, passes);
        assert.match(await row.innerText(), /declared in code/);
        assert.match(await row.innerText(), /since/);
        assert.match(await row.innerText(), /fires above 4/);
        const quiet = page.locator(".alerts-rules").getByRole("row", { name: /backlog huge/ });
        assert.match(await quiet.innerText(), /\bok\b/i);
        assert.match(await quiet.innerText(), /every task/);

        await row.getByRole("button", { name: RULE }).click();
        const alert = page.locator(".alerts-instances").getByRole("row", { name: /send-email/ });
        assert.match(await alert.innerText(), /firing/i);
        assert.match(await alert.innerText(), /\b5\b/, "the figure: 5 failed jobs");

        const history = page.locator(".alerts-history");
        await pageReadsHistory(page, root, outcomeKept("ops", "delivered"));
        await history.getByText("ops: delivered").waitFor();
        assert.match(await history.innerText(), new RegExp(RULE));
        assert.equal(hook.received.length, 1);
        await screenshots(page, "alerts");

        await page.goto(root);
        const mark = page.getByRole("row", { name: /send-email/ }).locator(".alert-mark");
        await mark.waitFor();
        // The frame's count comes first; the rules' names once the page has read them.
        await page.getByRole("row", { name: /send-email/ })
          .locator(`.alert-mark[title="Firing: ${RULE}"]`).waitFor();
        assert.equal(await page.locator(".alert-mark").count(), 1, "only send-email is marked");
        assert.equal((await page.locator(".topbar .firing-count").innerText()).trim(), "1 firing");
        const alertsLink = page.getByRole("navigation", { name: "Main" }).getByRole("link", {
          name: /Alerts/,
        });
        assert.equal((await alertsLink.locator(".firing-count").innerText()).trim(), "1");
        await screenshots(page, "alerts-overview");
      });
    } finally {
      await hook.close();
    }
  },
);

browserTest(
  "the overview's mark and the counts follow the alerts frame as a rule fires and resolves, with no reload",
  async () => {
    const hook = webhookReceiver();
    const passes = new HeldInterval(EVERY_MS);
    try {
      await withBoard(
        { alerts: alertsTo(hook.url), timers: passes },
        async ({ page, root, redis }) => {
          // The page has loaded, and read that nothing fires, before the first pass.
          const firingRead = page.waitForResponse((res) => res.url().endsWith("/api/alerts"));
          await page.goto(root);
          await firingRead;
          await evaluation(passes, root);
          const mark = page.getByRole("row", { name: /send-email/ }).locator(".alert-mark");
          // Told by the frame: the polling backstop alone would take 30 s.
          await mark.waitFor({ timeout: 20_000 });
          // The frame's count comes first; the rules' names once the page has read them.
          await page.getByRole("row", { name: /send-email/ })
            .locator(`.alert-mark[title="Firing: ${RULE}"]`).waitFor();
          await page.locator(".topbar .firing-count", { hasText: "1 firing" }).waitFor();

          // Retried, send-email has no failed job left: the next pass resolves the alert.
          const res = await fetch(`${root}api/tasks/send-email/retry-all`, {
            method: "POST",
            headers: { "content-type": "application/json", origin: new URL(root).origin },
            body: "{}",
          });
          assert.equal(res.status, 200, await res.text());
          // A pass reads the live state the board keeps: once that counts the retry, not before.
          const reader = createRedisSource({ url: redis.url });
          try {
            await waitFor(async () => {
              const [row] = await reader.boardStore.feed!.readLiveRows(["send-email"]);
              return row?.stats.failed === 0;
            }, { what: "send-email's failed jobs retried in the live state" });
          } finally {
            await reader.close();
          }
          await evaluation(passes, root);
          await mark.waitFor({ state: "detached", timeout: 20_000 });
          assert.equal(await page.locator(".firing-count").count(), 0);
        },
      );
    } finally {
      await hook.close();
    }
  },
);

browserTest("the notices sent are filtered by rule, task and state", async () => {
  const hook = webhookReceiver();
  const passes = new HeldInterval(EVERY_MS);
  try {
    await withBoard({ alerts: alertsTo(hook.url), timers: passes }, async ({ page, root }) => {
      await openFiring(page, root, passes);
      const history = page.locator(".alerts-history");
      await pageReadsHistory(page, root, outcomeKept("ops", "delivered"));
      await history.getByText("ops: delivered").waitFor();
      const filters = page.getByRole("form", { name: "Filter the notices" });
      const none = page.getByText("No notice matches the filters.");

      await filters.getByLabel("State").selectOption("resolved");
      await none.waitFor();
      await filters.getByLabel("State").selectOption("firing");
      await history.getByText("ops: delivered").waitFor();
      await filters.getByLabel("Rule").selectOption("backlog huge");
      await none.waitFor();
      await filters.getByLabel("Rule").selectOption(RULE);
      await filters.getByLabel("Task").fill("send-sms");
      await filters.getByLabel("Task").press("Enter");
      await none.waitFor();
      await filters.getByLabel("Task").fill("send-email");
      await filters.getByLabel("Task").press("Enter");
      await history.getByText("ops: delivered").waitFor();
      assert.match(await history.innerText(), new RegExp(RULE));
    });
  } finally {
    await hook.close();
  }
});

browserTest("silences are added and ended from the page", async () => {
  const hook = webhookReceiver();
  const passes = new HeldInterval(EVERY_MS);
  try {
    await withBoard({ alerts: alertsTo(hook.url), timers: passes }, async ({ page, root }) => {
      await page.goto(`${root}alerts`);
      const form = page.getByRole("form", { name: "Add a silence" });
      await form.getByLabel("Mute").selectOption("rule");
      await form.getByLabel("Rule").selectOption(RULE);
      await form.getByLabel("Duration").fill("2h");
      await form.getByLabel("Reason").fill("deploy in progress");
      await form.getByRole("button", { name: "Add silence" }).click();

      const silence = page.locator(".alerts-silences").getByRole("row", {
        name: new RegExp(`rule ${RULE}`),
      });
      await silence.waitFor();
      // The next evaluation counts the muted alert apart: told nobody, it is not "firing".
      await evaluation(passes, root);
      const topBar = page.locator(".topbar .firing-count");
      await topBar.filter({ hasText: "1 silenced" }).waitFor();
      assert.equal((await topBar.innerText()).trim(), "1 silenced");
      assert.match(await silence.innerText(), /deploy in progress/);
      assert.match(await silence.innerText(), /in 1h 59m|in 2h\b/);
      await screenshots(page, "alerts-silence");

      await silence.getByRole("button", { name: `End the silence of rule ${RULE}` }).click();
      await page.getByRole("dialog").getByRole("button", { name: "End silence" }).click();
      await silence.waitFor({ state: "detached" });
      await page.getByText("No silence: every alert is told.").waitFor();
      await evaluation(passes, root);
      await topBar.filter({ hasText: "1 firing" }).waitFor();
    });
  } finally {
    await hook.close();
  }
});

browserTest(
  "a test notice reaches the sink and its outcome shows beside it, delivered or failed",
  async () => {
    const hook = webhookReceiver();
    try {
      await withBoard({ alerts: alertsTo(hook.url) }, async ({ page, root }) => {
        await page.goto(`${root}alerts`);
        await page.getByRole("button", { name: "Send a test notice to ops" }).click();
        const sink = page.locator(".alerts-sink", { hasText: "ops" });
        await sink.getByText("delivered").waitFor();
        const tests = hook.received.map((r) => JSON.parse(r.body)).filter((n) => n.test === true);
        assert.equal(tests.length, 1);
        assert.equal(tests[0].rule, "test notice");
      });
    } finally {
      await hook.close();
    }
    const refusing = webhookReceiver([500]);
    try {
      await withBoard({ alerts: alertsTo(refusing.url, 0) }, async ({ page, root }) => {
        await page.goto(`${root}alerts`);
        await page.getByRole("button", { name: "Send a test notice to ops" }).click();
        const sink = page.locator(".alerts-sink", { hasText: "ops" });
        await sink.getByText("failed").waitFor();
        assert.match(await sink.innerText(), /HTTP 500 \(1 attempt\)/);
        await screenshots(page, "alerts-test-notice");
      });
    } finally {
      await refusing.close();
    }
  },
);

browserTest(
  "stored rules are made, refused on the field at fault, changed and deleted",
  async () => {
    const hook = webhookReceiver();
    try {
      await withBoard({ alerts: alertsTo(hook.url) }, async ({ page, root }) => {
        await page.goto(`${root}alerts`);
        await page.getByRole("button", { name: "New rule" }).click();
        const editor = page.getByRole("form", { name: "New rule" });
        await editor.getByLabel("Name").fill("rate high");
        await editor.getByLabel("Kind").selectOption("failureRate");
        await editor.getByLabel("Tasks").fill("send-email");
        await editor.getByLabel("Threshold (%)").fill("150");
        await editor.getByLabel("ops").check();
        await screenshots(page, "alerts-editor");
        await editor.getByRole("button", { name: "Create rule" }).click();
        // The server's validation names the field: 150 is no percentage.
        await editor.locator(".field-error").first().waitFor();
        assert.equal(await editor.getByLabel("Threshold (%)").getAttribute("aria-invalid"), "true");

        await editor.getByLabel("Threshold (%)").fill("25");
        await editor.getByRole("button", { name: "Create rule" }).click();
        const rules = page.locator(".alerts-rules");
        const row = rules.getByRole("row", { name: /rate high/ });
        await row.waitFor();
        assert.match(await row.innerText(), /stored/);
        assert.match(await row.innerText(), /fires above 25%/);
        assert.equal(
          await rules.getByRole("group", { name: `Actions for ${RULE}` }).count(),
          0,
          "a rule declared in code has no Edit or Delete",
        );

        await row.getByRole("button", { name: "Edit" }).click();
        const edit = page.getByRole("form", { name: "Edit rule rate high" });
        assert.equal(await edit.getByLabel("Threshold (%)").inputValue(), "25");
        await edit.getByLabel("Threshold (%)").fill("30");
        await edit.getByRole("button", { name: "Save changes" }).click();
        await row.getByText("fires above 30%", { exact: false }).waitFor();

        await row.getByRole("button", { name: "Delete" }).click();
        assert.match(
          await page.getByRole("dialog").innerText(),
          /rate high is no longer evaluated\. Its firing alerts end: their sinks are told they are resolved, because the rule was removed\./,
        );
        await page.getByRole("dialog").getByRole("button", { name: "Delete rule" }).click();
        await row.waitFor({ state: "detached" });
      });
    } finally {
      await hook.close();
    }
  },
);

browserTest(
  "a stored rule naming a sink the alerts file no longer has says so on its row and in the history",
  async () => {
    const hook = webhookReceiver();
    const passes = new HeldInterval(EVERY_MS);
    try {
      await withBoard(
        { alerts: alertsTo(hook.url), timers: passes },
        async ({ page, root, redis }) => {
          // Stored while the file had a "pager" sink, which it has no more.
          const store = createRedisSource({ url: redis.url });
          const rule = AlertRuleSchema.parse({
            name: "mail paged",
            kind: "failed",
            tasks: ["send-email"],
            threshold: 4,
            sinks: ["ops", "pager"],
          });
          assert.equal(await store.boardStore.saveAlertRule(rule, "create", 200), "saved");
          await store.close();

          await page.clock.install();
          await page.goto(`${root}alerts`);
          const row = page.locator(".alerts-rules").getByRole("row", { name: /mail paged/ });
          const missing = row.locator(".alerts-sink-missing");
          await missing.waitFor();
          assert.equal(await missing.innerText(), "pager: no such sink");
          assert.match(
            await missing.getAttribute("title") ?? "",
            /not in the alerts configuration/i,
          );
          const history = page.locator(".alerts-history").getByRole("row", { name: /mail paged/ });
          await evaluation(passes, root);
          await pageReadsHistory(page, root, outcomeKept("pager", "failed"));
          await history.getByText("pager: failed").waitFor();
          assert.match(
            await history.innerText(),
            /no sink named pager in the alerts configuration/,
          );
          assert.match(await history.innerText(), /ops: delivered/);
          await screenshots(page, "alerts-missing-sink");

          // Its editor shows the missing sink checked, so that it can be taken off and the rule saved.
          await row.getByRole("button", { name: "Edit" }).click();
          const edit = page.getByRole("form", { name: "Edit rule mail paged" });
          const pager = edit.getByRole("checkbox", { name: /pager/ });
          assert.ok(await pager.isChecked());
          assert.match(await edit.locator(".alerts-sinks").innerText(), /pager\s+no such sink/);
          await pager.uncheck();
          await edit.getByRole("button", { name: "Save changes" }).click();
          await missing.waitFor({ state: "detached" });
          assert.match(await row.innerText(), /ops/);
        },
      );
    } finally {
      await hook.close();
    }
  },
);

browserTest(
  "without alerts.update the page shows no rule editor, silence form, End or test button",
  async () => {
    const hook = webhookReceiver();
    const passes = new HeldInterval(EVERY_MS);
    try {
      await withBoard({
        alerts: alertsTo(hook.url),
        auth: () => ({ name: "vic" }),
        can: (_user, action) => action !== "alerts.update",
        timers: passes,
      }, async ({ page, root }) => {
        await openFiring(page, root, passes);
        assert.equal(await page.getByRole("button", { name: "New rule" }).count(), 0);
        assert.equal(await page.getByRole("form", { name: "Add a silence" }).count(), 0);
        assert.equal(await page.getByRole("button", { name: /Send a test notice/ }).count(), 0);

        assert.equal(await page.getByRole("columnheader", { name: "Actions" }).count(), 0);
        // The rest is there to read.
        await page.locator(".alerts-sink", { hasText: "ops" }).waitFor();
        await page.getByRole("heading", { name: "Silences" }).waitFor();
      });
    } finally {
      await hook.close();
    }
  },
);

browserTest(
  "with Redis gone the page keeps its last figures, dated, and recovers by itself",
  async () => {
    const hook = webhookReceiver();
    const passes = new HeldInterval(EVERY_MS);
    try {
      await withBoard(
        { alerts: alertsTo(hook.url), timers: passes },
        async ({ page, root, redis }) => {
          const row = await openFiring(page, root, passes);
          await redis.stop({ keepData: true });
          await page.locator(".stale-note", { hasText: /as of \d\d:\d\d:\d\d/ }).waitFor({
            timeout: 15_000,
          });
          assert.match(await row.innerText(), /firing/i, "the last known state stays");
          await screenshots(page, "alerts-redis-down");

          await redis.start();
          await page.locator(".stale-note").waitFor({ state: "detached", timeout: 15_000 });
          await row.getByText("firing", { exact: true }).waitFor();
        },
      );
    } finally {
      await hook.close();
    }
  },
);

browserTest(
  "without the alerts option the page says how to turn them on, and nothing counts",
  async () => {
    await withBoard({}, async ({ page, root }) => {
      await page.goto(`${root}alerts`);
      await page.getByRole("heading", { name: "Alerts are off" }).waitFor();
      assert.match(await page.locator(".content").innerText(), /--alerts FILE/);
      assert.equal(await page.locator(".firing-count").count(), 0);
    });
  },
);

/** A rule name longer than any column: words of a sentence, then one unbroken run. */
const LONG_RULE = `mail failing on the nightly settlement run of ${"x".repeat(50)}`;

/** Every cell of the page's tables outside its scroll box (hidden behind the scroll shadow). Runs in the page. */
function cellsOutOfView(): string[] {
  const outside: string[] = [];
  for (const table of document.querySelectorAll(".alerts-history, .alerts-silences")) {
    const box = table.closest(".table-wrap") ?? table.parentElement!;
    const left = box.getBoundingClientRect().left + box.clientLeft;
    const right = left + box.clientWidth;
    for (const cell of table.querySelectorAll(":scope > * > tr > :is(th, td)")) {
      const rect = cell.getBoundingClientRect();
      if (rect.width > 0 && (rect.left < left - 0.5 || rect.right > right + 0.5)) {
        outside.push(`${table.className}: "${(cell.textContent ?? "").trim().slice(0, 30)}"`);
      }
    }
  }
  return outside;
}

browserTest(
  "the history and the silences keep every column in view with a long rule name; a failed delivery reads apart from its reason, its mark clear of the text on a phone",
  async () => {
    const refusing = webhookReceiver([500]);
    try {
      const file = alertsTo(refusing.url, 0);
      const alerts = { ...file, rules: [{ ...file.rules![0], name: LONG_RULE }] };
      const passes = new HeldInterval(EVERY_MS);
      await withBoard({ alerts, timers: passes }, async ({ page, root }) => {
        await page.clock.install();
        await page.goto(`${root}alerts`);
        await page.locator(".alerts-rules").getByRole("row", { name: /nightly settlement/ })
          .waitFor();
        await evaluation(passes, root);
        await pageReadsHistory(page, root, outcomeKept("ops", "failed"));
        const failed = page.locator(".alerts-history tr.is-failed").first();
        await failed.waitFor();
        const res = await fetch(`${root}api/alerts/silences`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: new URL(root).origin },
          body: JSON.stringify({
            scope: { rule: LONG_RULE },
            duration: "1h",
            reason: "settlement export moved",
          }),
        });
        assert.equal(res.status, 201, await res.text());
        await page.locator(".alerts-silences tbody tr").first().waitFor();

        await page.setViewportSize({ width: 1280, height: 900 });
        assert.deepEqual(await page.evaluate(cellsOutOfView), []);
        const name = failed.locator(`[data-name="${LONG_RULE}"]`);
        assert.equal(await name.getAttribute("title"), LONG_RULE, "the whole name in its tooltip");

        assert.match(
          await failed.locator(".alerts-delivery").innerText(),
          /^ops: failed \(HTTP 500/,
        );

        await page.setViewportSize({ width: 390, height: 900 });
        const gap = await failed.evaluate((row) => {
          const marked = [row, ...row.children].find((el) =>
            getComputedStyle(el).boxShadow.includes("inset")
          )!;
          const text = row.querySelector("td time, td")!.getBoundingClientRect();
          return text.left - marked.getBoundingClientRect().left;
        });
        assert.ok(gap >= 8, `the failed mark (3 px) is ${gap} px from the row's first text`);
      });
    } finally {
      await refusing.close();
    }
  },
);

browserTest("a rule about the store says so in its Tasks column, not 'every task'", async () => {
  const hook = webhookReceiver();
  try {
    const file = alertsTo(hook.url);
    const alerts = {
      ...file,
      rules: [...file.rules!, { name: "redis full", kind: "redis" as const, sinks: ["ops"] }],
    };
    await withBoard({ alerts }, async ({ page, root }) => {
      await page.goto(`${root}alerts`);
      const rows = page.locator(".alerts-rules tbody tr.alerts-rule");
      const store = rows.filter({ hasText: "redis full" }).locator('[data-label="Tasks"]');
      const task = rows.filter({ hasText: "backlog huge" }).locator('[data-label="Tasks"]');
      assert.equal((await store.innerText()).trim(), "the store");
      assert.equal((await task.innerText()).trim(), "every task");
    });
  } finally {
    await hook.close();
  }
});
