/**
 * Task health on the overview, in a real browser on real Redis holding the
 * taskora fixture (its throughput moved to now), plus a job active for hours
 * (its worker renews its lock), an active job whose worker is gone (no lock)
 * and a delayed job long past its run time.
 */

import assert from "node:assert/strict";
import { connectClient } from "../helpers/redis_server.ts";
import { writeJob } from "../helpers/wire_writer.ts";
import { browserTest, withBoard } from "./harness.ts";

const HOUR = 3_600_000;

browserTest("the overview says why tasks are (un)healthy, stuck and stalled jobs too", async () => {
  await withBoard({}, async ({ page, root, redis }) => {
    const client = await connectClient(redis.url);
    const now = Date.now();
    const stuck = await writeJob(client, {
      task: "export",
      state: "active",
      ts: now - 3 * HOUR - 120_000,
    });
    // Its worker still runs it: the lock it renews.
    await client.sendCommand(["SET", `taskora:{export}:${stuck}:lock`, "tok", "PX", "90000"]);
    await writeJob(client, { task: "ingest", state: "active", ts: now - 120_000 });
    const late = await writeJob(client, {
      task: "digest",
      state: "delayed",
      ts: now - 2 * HOUR - 120_000,
      delay: 60_000,
    });
    await client.close();

    await page.goto(root);
    const row = (task: string) => page.getByRole("row", { name: new RegExp(`^${task} `) });
    await row("export").waitFor();
    assert.match(
      await row("export").locator(".health-cell").textContent() ?? "",
      new RegExp(`warning\\s*job ${stuck.slice(0, 8)} active for 3 h`),
    );
    assert.match(
      await row("ingest").locator(".health-cell").textContent() ?? "",
      /warning\s*1 active job holds no lock: no worker runs it/,
    );
    assert.match(
      await row("digest").locator(".health-cell").textContent() ?? "",
      new RegExp(`warning\\s*job ${late.slice(0, 8)} overdue by 2 h`),
    );
    // square finished 5 jobs this minute, none failed.
    assert.match(
      await row("square").locator(".health-cell").textContent() ?? "",
      /healthy\s*no failures in the last 15 min/,
    );
  });
});
