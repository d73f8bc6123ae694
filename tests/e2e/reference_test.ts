/**
 * The API reference page in a real browser: reached from the sidebar, it
 * renders the board's OpenAPI document (operations by tag, each
 * with its parameters, body and answers; then the schemas), and the code
 * that draws it loads only when it opens. Screenshots at 390, 1280 and
 * 1920 px.
 */

import assert from "node:assert/strict";
import { browserTest, screenshot, screenshotView, withBoard } from "./harness.ts";

browserTest(
  "the API reference renders the OpenAPI document, loading its code only when opened",
  () =>
    withBoard({}, async ({ page, root }) => {
      const scripts: string[] = [];
      page.on("request", (request) => {
        if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname);
      });
      await page.goto(root);
      await page.getByRole("heading", { name: "Overview" }).first().waitFor();
      assert.ok(!scripts.some((path) => /\/render\.\w+\.js$/.test(path)), scripts.join(", "));

      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "API" })
        .click();
      await page.waitForURL("**/board/reference");
      await page.getByRole("heading", { name: "queue-board API 1" }).waitFor();
      assert.ok(scripts.some((path) => /\/render\.\w+\.js$/.test(path)), scripts.join(", "));
      for (const tag of ["board", "tasks", "jobs", "schedules", "workflows", "dlq", "Schemas"]) {
        await page.getByRole("heading", { name: tag, exact: true }).waitFor();
      }

      const retry = page.locator("details.ref-op", { hasText: "/jobs/{jobId}/retry" }).first();
      await retry.locator("summary").click();
      const text = await retry.innerText();
      assert.match(text, /POST\s+\/jobs\/\{jobId\}\/retry/);
      assert.match(text, /jobId \*\s+path\s+string/);
      assert.match(text, /404\s+JOB_NOT_FOUND\s+application\/json\s+Error/);
      assert.match(text, /200\s+OK\s+application\/json\s+JobAction/);

      const events = page.locator("details.ref-op", { hasText: "/events" }).first();
      await events.locator("summary").click();
      assert.match(await events.innerText(), /text\/event-stream/);

      const schema = page.locator("#schema-Job");
      await schema.locator("summary").click();
      assert.match(await schema.innerText(), /state \*\s+JobState/);

      for (const width of [390, 1280, 1920]) {
        await page.setViewportSize({ width, height: 900 });
        await screenshot(page, `reference-${width}`);
        // And the opened operation as a reader sees it, in the viewport.
        await retry.evaluate((element) => element.scrollIntoView());
        await screenshotView(page, `reference-${width}-operation`);
      }
    }),
);
