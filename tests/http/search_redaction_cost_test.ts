/**
 * A search cannot be used to guess what redaction hides by the work it
 * makes the board do: on a real Redis holding 400 failed jobs whose data
 * carries a masked token, a search for the right token and one for a wrong
 * one run the same commands, as many times (`INFO commandstats`), and send
 * back the same number of candidates to the board. Before, the right guess
 * brought every job back through the prefilter (5–7× the time).
 */

import assert from "node:assert/strict";
import { createBoardOn } from "../helpers/checked_board.ts";
import { commandsOf } from "../helpers/command_stats.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { loadFixture } from "../helpers/fixture.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { jobCommands } from "../helpers/wire_writer.ts";

const JOBS = 400;

Deno.test("a right guess of a masked value costs Redis what a wrong guess costs", async () => {
  const redis = await startRedis();
  await loadFixture(redis.url);
  const client = await connectClient(redis.url);
  // Fake timers: no periodic work of the board lands between the counts.
  const board = createBoardOn(new FakeTimers(), redis.url, { redact: ["apiKey"] });
  try {
    const now = Date.now();
    for (let i = 0; i < JOBS; i++) {
      const { commands } = jobCommands({
        task: "send-email",
        state: "failed",
        ts: now - i,
        finishedOn: now - i,
        data: i % 2 ? { apiKey: "sk-live-7f3a9c", to: `user-${i}` } : { to: `user-${i}` },
        error: "Connection refused",
        attempt: 1,
        maxAttempts: 1,
      });
      for (const command of commands) await client.sendCommand(command);
    }
    const search = async (guess: string) => {
      let text = "";
      const calls = await commandsOf(client, async () => {
        const response = await board.fetch(
          new Request(
            "http://board.test/board/api/tasks/send-email/jobs/search?state=failed" +
              `&field=data&contains=${guess}&limit=50`,
          ),
        );
        assert.equal(response.status, 200);
        text = await response.text();
      });
      assert.doesNotMatch(text, /"type":"match"/, "a masked value is never matched");
      return calls;
    };
    await search("warm-up"); // the script loaded once, before counting
    assert.deepEqual(await search("sk-live-7f3a9c"), await search("sk-live-0000000"));
  } finally {
    await board.close();
    await client.close();
    await redis.stop();
  }
});
