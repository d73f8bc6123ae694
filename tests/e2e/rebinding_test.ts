/**
 * DNS rebinding in a real browser, on the standalone server's defaults
 * (loopback, no login, mutations on): Chromium resolves a foreign name to
 * the board (`--host-resolver-rules`), as an attacker's DNS would after the
 * page has loaded. That page is same-origin with the board as far as the
 * browser knows, yet it can neither read the board nor change it.
 */

import assert from "node:assert/strict";
import { createBoard } from "../../mod.ts";
import { loadFixture } from "../helpers/fixture.ts";
import { connectClient } from "../helpers/redis_server.ts";
import { launchBrowser } from "./browser.ts";
import { browserTest, freshRedis } from "./harness.ts";

const FOREIGN = "rebind.attacker.example";

const LOCAL_NETWORK_CHECKS = [
  "LocalNetworkAccessChecks",
  "BlockInsecurePrivateNetworkRequests",
  "PrivateNetworkAccessSendPreflights",
  "PrivateNetworkAccessRespectPreflightResults",
];

/** What the attacker's page does once its name points at the board: read the DLQ, pause a schedule. */
async function attack(): Promise<
  { read: number; readBody: string; write: number; writeCode: string }
> {
  const read = await fetch("/board/api/dlq");
  const write = await fetch("/board/api/schedules/heartbeat/pause", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: "{}",
  });
  return {
    read: read.status,
    readBody: await read.text(),
    write: write.status,
    writeCode: (await write.json()).code,
  };
}

browserTest(
  "a page on a foreign name resolved to the board can neither read nor write",
  async () => {
    const redis = await freshRedis();
    const client = await connectClient(redis.url);
    const board = createBoard(redis.url);
    const log = console.log;
    console.log = () => {};
    const server = await board.listen({ port: 0, hostname: "127.0.0.1" });
    console.log = log;
    const { port } = server.addr;
    const browser = await launchBrowser([
      `--host-resolver-rules=MAP ${FOREIGN} 127.0.0.1`,
      // Chromium's own local-network checks stop the page's requests before they reach the
      // board; other browsers have none, so the board must hold without them.
      `--disable-features=${LOCAL_NETWORK_CHECKS.join(",")}`,
    ]);
    try {
      await loadFixture(redis.url, { metricsAt: Date.now() });
      const paused = () => client.sendCommand(["ZSCORE", "taskora:schedules:next", "heartbeat"]);
      const nextRun = await paused();
      assert.notEqual(nextRun, null);
      const page = await browser.newPage();
      // The attacker's page, as their server sent it before the name was pointed at the board.
      const origin = `http://${FOREIGN}:${port}`;
      await page.route(
        `${origin}/`,
        (route) =>
          route.fulfill({ contentType: "text/html", body: "<!doctype html><title>prize</title>" }),
      );
      await page.goto(`${origin}/`);
      const answers = await page.evaluate(attack);
      assert.equal(answers.read, 403);
      assert.equal(JSON.parse(answers.readBody).code, "HOST_NOT_ALLOWED");
      assert.doesNotMatch(answers.readBody, /send-email/);
      assert.deepEqual([answers.write, answers.writeCode], [403, "HOST_NOT_ALLOWED"]);
      assert.equal(await paused(), nextRun, "the schedule is not paused");
      // Nor is the board's own page served under that name.
      assert.equal((await page.goto(`${origin}/board/dlq`))?.status(), 403);
      // The board's own names still work from the same browser.
      await page.goto(`http://localhost:${port}/board/dlq`);
      await page.locator(".dlq-group").first().waitFor();
    } finally {
      await browser.close();
      await server.shutdown();
      await board.close();
      await client.close();
    }
  },
);
