/**
 * The workflow graph on a phone (390 px): a chain of six runs top to
 * bottom; after "Fit" every node is on screen inside the graph's frame; the
 * buttons, the wheel and a drag zoom and pan it; at 1280 px it runs left to
 * right again.
 */

import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { connectClient } from "../helpers/redis_server.ts";
import { browserTest, withBoard } from "./harness.ts";

const CHAIN = "c6c6c6c6-0000-4000-8000-000000000006";

type Box = { x: number; y: number; width: number; height: number };

/** The nodes' boxes on screen, in chain order (step-0 first). */
async function nodeBoxes(page: Page): Promise<Box[]> {
  const boxes: Box[] = [];
  for (let i = 0; i < 6; i++) {
    // By its name: a node's tooltip may name another (the parent it waits for).
    const name = page.locator(".wf-node-name", { hasText: `step-${i}` });
    boxes.push((await page.locator(".wf-node", { has: name }).boundingBox())!);
  }
  return boxes;
}

const inside = (inner: Box, outer: Box) =>
  inner.x >= outer.x - 0.5 && inner.y >= outer.y - 0.5 &&
  inner.x + inner.width <= outer.x + outer.width + 0.5 &&
  inner.y + inner.height <= outer.y + outer.height + 0.5;

browserTest("on a phone a 6-node chain runs top to bottom, and Fit shows every node", async () => {
  await withBoard({}, async ({ page, root, redis }) => {
    const client = await connectClient(redis.url);
    try {
      const nodes = Array.from({ length: 6 }, (_, i) => ({
        taskName: `step-${i}`,
        deps: i === 0 ? [] : [i - 1],
        jobId: `chain-job-${i}`,
        _v: 1,
      }));
      await client.hSet(`taskora:wf:{${CHAIN}}`, {
        graph: JSON.stringify({ nodes, terminal: [5], name: "six steps" }),
        state: "running",
        createdAt: String(Date.now()),
        ...Object.fromEntries(
          nodes.map((_, i) => [`n:${i}:state`, i < 2 ? "completed" : "pending"]),
        ),
      });
    } finally {
      await client.close();
    }
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${root}workflows/${CHAIN}`);
    await page.locator(".wf-node").nth(5).waitFor();
    await page.getByRole("button", { name: "Fit" }).click();
    const frame = (await page.locator("svg.wf-graph").boundingBox())!;
    const screen = { x: 0, y: 0, width: 390, height: Number.MAX_SAFE_INTEGER };
    assert.ok(inside(frame, screen), `the frame is on screen: ${JSON.stringify(frame)}`);
    const fitted = await nodeBoxes(page);
    for (const [i, box] of fitted.entries()) {
      assert.ok(inside(box, frame), `step-${i} is inside the frame: ${JSON.stringify(box)}`);
    }
    for (let i = 1; i < 6; i++) {
      assert.ok(fitted[i].y > fitted[i - 1].y + fitted[i - 1].height / 2, "top to bottom");
      assert.ok(Math.abs(fitted[i].x - fitted[0].x) < 1, "one column");
    }

    // Zoom in by the button, around the centre: the nodes grow.
    await page.getByRole("button", { name: "Zoom in" }).click();
    await page.locator("svg.wf-graph").evaluate((svg) => svg.scrollIntoView({ block: "center" }));
    const bigger = await nodeBoxes(page);
    assert.ok(bigger[0].width > fitted[0].width * 1.2, "zoomed in");
    // A drag pans: every node moves with the pointer.
    const shown = (await page.locator("svg.wf-graph").boundingBox())!;
    const from = { x: shown.x + shown.width / 2, y: shown.y + shown.height / 2 };
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(from.x + 10, from.y + 20, { steps: 2 });
    await page.mouse.move(from.x + 30, from.y + 60, { steps: 4 });
    await page.mouse.up();
    const panned = await nodeBoxes(page);
    assert.ok(
      Math.abs(panned[0].x - bigger[0].x - 30) < 1.5,
      `panned right by the drag: ${JSON.stringify([bigger[0], panned[0]])}`,
    );
    assert.ok(Math.abs(panned[0].y - bigger[0].y - 60) < 1.5, "panned down by the drag");
    assert.match(page.url(), /workflows\//, "a drag opens no node");
    // The wheel zooms out around the pointer.
    await page.mouse.wheel(0, 300);
    const smaller = await nodeBoxes(page);
    assert.ok(smaller[0].width < panned[0].width, "zoomed out by the wheel");

    // On a laptop the layers run left to right.
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole("button", { name: "Fit" }).click();
    const wide = await nodeBoxes(page);
    assert.ok(wide[1].x > wide[0].x + wide[0].width / 2, "left to right");
    assert.ok(Math.abs(wide[1].y - wide[0].y) < 1, "one row");
  });
});
