/**
 * How long a board's own event reader blocks (issue 35: five boards cost at
 * most 1.3 times one). A board that does not lead reads its browsers' job
 * events itself, one `XREAD BLOCK` after another; with nothing written, each
 * one's block is what it costs. Before, 2 s: 0.5 commands/s a board, more
 * than anything else a follower sent but its lease turns. The block does not
 * delay an event: XREAD answers with the first entry. Seen in `MONITOR`, as
 * Redis received the command.
 */

import assert from "node:assert/strict";
import { RedisTaskSource } from "../../src/source/redis/mod.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { writeJob } from "../helpers/wire_writer.ts";

Deno.test("a board's own event reader blocks 10 s at a time, and still hands over an event at once", async () => {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  const monitor = client.duplicate();
  await monitor.connect();
  const source = new RedisTaskSource({ url: redis.url, tasks: ["mail"] });
  const xreads: string[][] = [];
  await monitor.monitor((line) => {
    const args = [...line.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map(([, arg]) => arg);
    if (args[0]?.toUpperCase() === "XREAD") xreads.push(args);
  });
  const events: string[] = [];
  const unsubscribe = source.subscribe((event) => events.push(event.jobId));
  try {
    await waitFor(() => xreads.length > 0, { what: "the reader's first XREAD" });
    const blockAt = xreads[0].findIndex((arg) => arg.toUpperCase() === "BLOCK");
    assert.equal(xreads[0][blockAt + 1], "10000", xreads[0].join(" "));
    const id = await writeJob(client as never, { task: "mail", state: "waiting" });
    await waitFor(() => events.includes(id), { what: "the event, before the block ends" });
  } finally {
    unsubscribe();
    await source.close();
    await monitor.close();
    await client.close();
    await redis.stop();
  }
});
