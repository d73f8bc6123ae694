/**
 * The schedule editor on a board that redacts `token`, in a real browser on
 * real Redis: its data hint names the fields shown masked, and saving data
 * edited around them keeps the stored secret.
 */

import assert from "node:assert/strict";
import { connectClient } from "../helpers/redis_server.ts";
import { browserTest, withBoard } from "./harness.ts";

const STORED = { region: "eu", token: "s3cret" };

browserTest(
  "editing a schedule's masked data names the kept fields and keeps the secret",
  async () => {
    await withBoard({ redact: ["token"] }, async ({ page, root, redis }) => {
      const client = await connectClient(redis.url);
      try {
        await client.hSet(
          "taskora:schedules",
          "vault-sync",
          JSON.stringify({ task: "report", every: 3_600_000, data: STORED }),
        );
        await page.goto(`${root}schedules`);
        const vault = page.locator("tbody tr", { hasText: "vault-sync" }).first();
        await vault.getByRole("button", { name: "Edit" }).click();
        const form = page.getByRole("form", { name: "Edit schedule vault-sync" });
        await form.getByText("Kept as stored (masked here): token").waitFor();
        const data = form.getByLabel("Data (JSON)");
        await data.fill((await data.inputValue()).replace('"eu"', '"us"'));
        await form.getByRole("button", { name: "Save changes" }).click();
        await page.locator(".toast", { hasText: "Saved schedule vault-sync" }).waitFor();
        const stored = JSON.parse((await client.hGet("taskora:schedules", "vault-sync"))!);
        assert.deepEqual(stored.data, { region: "us", token: "s3cret" });
      } finally {
        client.destroy();
      }
    });
  },
);
