/**
 * The Alerts page against a real board on Redis holding the taskora fixture,
 * with a rule that really fires (send-email has 5 failed jobs; the rule fires
 * above 4) and a local receiver for its notices: the page lists the rules and
 * where they stand, and the top bar, the sidebar and the overview's row say
 * what fires.
 */

import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import type { AlertsFile } from "../../src/contract/alerts.ts";
import { webhookReceiver } from "../helpers/webhook_receiver.ts";
import { browserTest, screenshot, withBoard } from "./harness.ts";

const RULE = "mail failing";

/** A `failed` rule on send-email that fires at the first evaluation, and one that never does. */
function alertsTo(url: string, retries = 3): AlertsFile {
  return {
    evaluateEvery: "5s",
    sinks: [{ name: "ops", type: "webhook", url, secret: "s".repeat(32), retries }],
    rules: [
      { name: RULE, kind: "failed", tasks: ["send-email"], threshold: 4, sinks: ["ops"] },
      { name: "backlog huge", kind: "backlog", threshold: 1_000_000, sinks: ["ops"] },
    ],
  };
}

/** Opens the Alerts page and waits for the firing rule's row to say so (the first evaluation). */
async function openFiring(page: Page, root: string) {
  await page.goto(`${root}alerts`);
  const row = page.locator(".alerts-rules").getByRole("row", { name: new RegExp(RULE) });
  await row.getByText("firing", { exact: true }).waitFor({ timeout: 20_000 });
  return row;
}

/** Screenshots of the page at a phone's, a laptop's and a wide screen's width. */
async function screenshots(page: Page, name: string) {
  for (const width of [390, 1280, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page, `${name}-${width}`);
  }
}

browserTest(
  "the page lists the rules as they stand; the top bar, sidebar and overview count the firing one",
  async () => {
    const hook = webhookReceiver();
    try {
      await withBoard({ alerts: alertsTo(hook.url) }, async ({ page, root }) => {
        const row = await openFiring(page, root);
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
        await history.getByText("ops: delivered").waitFor({ timeout: 20_000 });
        assert.match(await history.innerText(), new RegExp(RULE));
        assert.equal(hook.received.length, 1);
        await screenshots(page, "alerts");

        await page.goto(root);
        const mark = page.getByRole("row", { name: /send-email/ }).locator(".alert-mark");
        await mark.waitFor();
        assert.equal(await mark.getAttribute("title"), `Firing: ${RULE}`);
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
