/**
 * The overview's throughput chart in a real browser, on real Redis holding
 * the taskora fixture (29 completed and 5 failed jobs in the current minute)
 * plus 7 jobs completed 30 minutes ago and 3 failed 2 hours ago.
 */

import assert from "node:assert/strict";
import { metricKey } from "../../src/source/wire/keys.ts";
import { connectClient } from "../helpers/redis_server.ts";
import { browserTest, withBoard } from "./harness.ts";

const MINUTE = 60_000;

browserTest("zooming sets the header's span and totals; the axis is per minute", async () => {
  await withBoard({}, async ({ page, root, redis }) => {
    const current = Math.floor(Date.now() / MINUTE) * MINUTE;
    const client = await connectClient(redis.url);
    await client.set(metricKey("report", "completed", current - 30 * MINUTE), "7");
    await client.set(metricKey("report", "failed", current - 120 * MINUTE), "3");
    await client.close();

    // Record what the chart writes on its canvas: the axis labels are drawn, not in the DOM.
    await page.addInitScript(() => {
      const drawn: string[] = [];
      Object.assign(globalThis, { __drawn: drawn });
      const fillText = CanvasRenderingContext2D.prototype.fillText;
      CanvasRenderingContext2D.prototype.fillText = function (text, ...rest) {
        drawn.push(String(text));
        return fillText.call(this, text, ...rest);
      };
    });
    await page.goto(root);
    const card = page.locator(".card", { hasText: "Throughput" });
    const totals = card.locator(".throughput-totals");
    await totals.filter({ hasText: "36 completed" }).waitFor();
    assert.match(await totals.textContent() ?? "", /36 completed\s*8 failed/);
    // The totals come with the data; the canvas is painted on a later frame.
    const perMinute = await page.waitForFunction(
      () =>
        (globalThis as unknown as { __drawn: string[] }).__drawn.find((text) =>
          /^\d+\/min$/.test(text)
        ),
    );
    assert.match(String(await perMinute.jsonValue()), /^\d+\/min$/, "the y axis is per minute");

    // Drag across 20 minutes around the jobs completed 30 minutes ago.
    const over = card.locator(".u-over");
    // uPlot's stylesheet, linked when the chart loaded, lays its layers over the canvas.
    assert.equal(await over.evaluate((el) => getComputedStyle(el).position), "absolute");
    const box = (await over.boundingBox())!;
    const x = (minutesAgo: number) => box.x + box.width * (1439 - minutesAgo) / 1439;
    const y = box.y + box.height / 2;
    await page.mouse.move(x(40), y);
    await page.mouse.down();
    await page.mouse.move(x(30), y, { steps: 5 });
    await page.mouse.move(x(20), y, { steps: 5 });
    await page.mouse.up();

    await totals.filter({ hasText: /^\s*7 completed\s*0 failed\s*$/ }).waitFor();
    // A span not within today (the test runs just after midnight) names its days too.
    const time = String.raw`(\w{3} \d{1,2}, )?\d\d:\d\d( [AP]M)?`;
    assert.match(
      await card.locator(".card-title").textContent() ?? "",
      new RegExp(`^Throughput, ${time} – ${time}$`),
    );
    assert.match(
      await page.getByRole("img", { name: /Jobs finished per minute/ }).getAttribute(
        "aria-label",
      ) ??
        "",
      new RegExp(`${time} – ${time}: 7 completed, 0 failed`),
    );

    // Double-click: the whole day again.
    await over.dblclick();
    await totals.filter({ hasText: "36 completed" }).waitFor();
    assert.equal(await card.locator(".card-title").textContent(), "Throughput, last 24 hours");
  });
});

browserTest(
  "the current minute is its own, dashed series, and says it is still counting",
  async () => {
    // The fixture's counts are written into the minute it is loaded in; the board and the page
    // read "this minute" from the real clock, so start with at least 15 s of the minute left.
    const intoMinute = Date.now() % MINUTE;
    if (intoMinute > MINUTE - 15_000) {
      await new Promise((resolve) => setTimeout(resolve, MINUTE - intoMinute + 100));
    }
    await withBoard({}, async ({ page, root }) => {
      await page.goto(root);
      const card = page.locator(".card", { hasText: "Throughput" });
      const over = card.locator(".u-over");
      await over.waitFor();
      const box = (await over.boundingBox())!;
      // Hover the right edge: the last bucket, this minute.
      await page.mouse.move(box.x + box.width - 1, box.y + box.height / 2);
      const legend = card.locator(".u-legend");
      await legend.filter({ hasText: "29 so far" }).waitFor();
      assert.match(await legend.textContent() ?? "", /Completed\s*29 so far.*Failed\s*5 so far/s);
      assert.equal(await legend.locator(".chart-partial").first().isVisible(), false);
      // When the counters were read, said under the chart (`X-As-Of`).
      assert.match(await card.locator(".throughput-as-of").textContent() ?? "", /^\d\d:\d\d:\d\d$/);
    });
  },
);

/** A label uPlot drew on the canvas, with its box's left edge in canvas pixels. */
interface DrawnLabel {
  text: string;
  left: number;
}

for (const perMinute of [10_000, 250_000]) {
  browserTest(
    `at ${perMinute}/min the y axis labels are compact and whole, inside the canvas`,
    async () => {
      await withBoard({}, async ({ page, root, redis }) => {
        const current = Math.floor(Date.now() / MINUTE) * MINUTE;
        const client = await connectClient(redis.url);
        await client.set(metricKey("report", "completed", current - 30 * MINUTE), `${perMinute}`);
        await client.close();

        // Record each label's box as drawn: the axis labels are painted, not in the DOM.
        await page.addInitScript(() => {
          const drawn: DrawnLabel[] = [];
          Object.assign(globalThis, { __labels: drawn });
          const fillText = CanvasRenderingContext2D.prototype.fillText;
          CanvasRenderingContext2D.prototype.fillText = function (text, x, y, ...rest) {
            const width = this.measureText(String(text)).width;
            const { a, e } = this.getTransform();
            const start = this.textAlign === "right" || this.textAlign === "end"
              ? x - width
              : this.textAlign === "center"
              ? x - width / 2
              : x;
            drawn.push({ text: String(text), left: a * start + e });
            return fillText.call(this, text, x, y, ...rest);
          };
        });
        await page.goto(root);
        const card = page.locator(".card", { hasText: "Throughput" });
        await card.locator(".throughput-totals").filter({ hasText: /\d\d,\d\d\d completed/ })
          .waitFor();
        const top = perMinute === 10_000 ? "10k/min" : "250k/min";
        await page.waitForFunction(
          (text) =>
            (globalThis as unknown as { __labels: DrawnLabel[] }).__labels.some((label) =>
              label.text === text
            ),
          top,
        );
        const labels = (await page.evaluate(() =>
          (globalThis as unknown as { __labels: DrawnLabel[] }).__labels
        )).filter((label) =>
          label.text.endsWith("/min")
        );
        for (const label of labels) {
          assert.match(label.text, /^\d+(\.\d+)?[kM]?\/min$/, "a compact per-minute label");
          assert.ok(label.left >= 0, `"${label.text}" starts ${label.left} px left of the canvas`);
        }
      });
    },
  );
}
