/**
 * Job data reaches the page as text, never as HTML: a task and a job whose
 * names and data are markup render literally, and no script runs.
 */

import assert from "node:assert/strict";
import { createBoard } from "../../mod.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import { browserTest, serveTestBoard, sharedBrowser } from "./harness.ts";

const PAYLOAD = "<img src=x onerror=alert(1)>";

browserTest("markup in task names and job data renders as text in the browser", async () => {
  const source = createMemorySource();
  source.store.enqueue(PAYLOAD, { id: "xss-job", data: { note: PAYLOAD } });
  const board = createBoard(source);
  const server = await serveTestBoard(board);
  const page = await (await sharedBrowser()).newPage();
  try {
    const dialogs: string[] = [];
    page.on("dialog", async (dialog) => {
      dialogs.push(dialog.message());
      await dialog.dismiss();
    });
    await page.goto(`${server.url}/board/`);
    await page.getByText(PAYLOAD, { exact: true }).first().waitFor({ timeout: 10_000 });
    assert.equal(await page.locator("img[src='x']").count(), 0, "no injected <img>");
    const job = await (await fetch(`${server.url}/board/api/jobs/xss-job`)).json();
    assert.deepEqual(job.data, { note: PAYLOAD });
    assert.deepEqual(dialogs, [], "no script ran");
  } finally {
    await page.context().close(); // its event stream would hold up the server's shutdown
    await server.stop();
    await source.close();
  }
});
