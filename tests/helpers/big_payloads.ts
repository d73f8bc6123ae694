/**
 * The job page's heaviest payloads, written in taskora's wire format: the
 * browser tests check what the page renders of them
 * (`tests/e2e/payload_test.ts`), the bench how long its main thread is busy
 * with them (`tests/bench/payload_render.ts`), so both look at one job.
 *
 * @module
 */

import { taskKeys } from "../../src/source/wire/keys.ts";
import { nested } from "./nested.ts";
import { type CommandSender, writeJob } from "./wire_writer.ts";

/** How many log lines the big job has; the last one reads `line 9999`. */
export const BIG_JOB_LOG_LINES = 10_000;

/**
 * A failed `send-email` job with a 10 MB input and {@link BIG_JOB_LOG_LINES}
 * log lines (every tenth an error, each with a meta object); its id.
 */
export async function writeBigJob(client: CommandSender): Promise<string> {
  const id = await writeJob(client, {
    task: "send-email",
    state: "failed",
    data: { to: "ada@x.io", blob: "x".repeat(10 * 1024 * 1024) },
    error: "boom",
    finishedOn: Date.now(),
  });
  const logs = Array.from({ length: BIG_JOB_LOG_LINES }, (_, i) =>
    JSON.stringify({
      level: i % 10 === 0 ? "error" : "info",
      message: `line ${i}`,
      meta: { i, nested: { deep: [i, i + 1] } },
      timestamp: Date.now() - BIG_JOB_LOG_LINES + i,
    }));
  await client.sendCommand(["RPUSH", `${taskKeys("send-email").jobPrefix}${id}:logs`, ...logs]);
  return id;
}

/** A completed `send-email` job whose input is 5,000 levels deep; its id. */
export function writeDeepJob(client: CommandSender): Promise<string> {
  return writeJob(client, {
    task: "send-email",
    state: "completed",
    data: nested(5000, { bottom: true }),
    finishedOn: Date.now(),
  });
}
