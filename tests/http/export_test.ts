/**
 * Job lists as CSV and NDJSON on a real Redis: every row of the list,
 * redacted as the list API shows it, CSV-escaped with formula cells
 * neutralised; a list over the cap stops at 100,000 rows and says so; bad
 * parameters are a 400 and an unknown task a 404 before any byte is sent.
 */

import assert from "node:assert/strict";
import { createBoard } from "../helpers/checked_board.ts";
import { EXPORT_CAP } from "../../src/contract/config.ts";
import { CSV_COLUMNS } from "../../src/exports/job_rows.ts";
import { taskKeys } from "../../src/source/wire/keys.ts";
import { loadFixture } from "../helpers/fixture.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { writeJob } from "../helpers/wire_writer.ts";

type Board = ReturnType<typeof createBoard>;
const get = (board: Board, path: string) =>
  Promise.resolve(board.fetch(new Request(`http://board.test/board/api${path}`)));

Deno.test("a failed list exports as CSV and NDJSON, redacted and escaped", async () => {
  const redis = await startRedis();
  await loadFixture(redis.url);
  const client = await connectClient(redis.url);
  const board = createBoard(redis.url, { redact: ["password"] });
  try {
    const finishedOn = Date.now() + 60_000; // newest first: these two lead the list
    await writeJob(client, {
      task: "send-email",
      id: "formula",
      state: "failed",
      error: '=HYPERLINK("http://evil","click"), then "quotes"\nand a line',
      finishedOn,
    });
    await writeJob(client, {
      task: "send-email",
      id: "secret",
      state: "failed",
      error: JSON.stringify({ password: "hunter2", reason: "bad" }),
      finishedOn: finishedOn - 1,
    });
    const csv = await get(board, "/tasks/send-email/jobs/export?state=failed&format=csv");
    assert.equal(csv.status, 200);
    assert.equal(csv.headers.get("content-type"), "text/csv; charset=utf-8");
    assert.equal(csv.headers.get("x-export-cap"), "100000", "the default cap");
    assert.equal(EXPORT_CAP, 100_000);
    assert.equal(csv.headers.get("x-export-total"), "7");
    assert.match(csv.headers.get("content-disposition")!, /filename="send-email-failed\.csv"/);
    const text = await csv.text();
    assert.ok(text.startsWith(`${CSV_COLUMNS.join(",")}\r\n`));
    assert.ok(
      text.includes(
        `"'=HYPERLINK(""http://evil"",""click""), then ""quotes""\nand a line"`,
      ),
      text.slice(0, 800),
    );
    assert.ok(!text.includes("hunter2"));
    assert.ok(text.includes("[REDACTED]"));
    // The header, 7 jobs; the quoted error holds one more line break.
    assert.equal(text.split("\r\n").filter(Boolean).length, 1 + 7);

    const ndjson = await get(board, "/tasks/send-email/jobs/export?state=failed&format=ndjson");
    const jobs = (await ndjson.text()).trim().split("\n").map((line) => JSON.parse(line));
    assert.deepEqual(jobs.slice(0, 2).map((job) => job.id), ["formula", "secret"]);
    assert.equal(jobs.length, 7);
    assert.equal(JSON.parse(jobs[1].error).password, "[REDACTED]");

    const dlq = await get(board, "/dlq/export?format=ndjson&task=send-email");
    assert.equal((await dlq.text()).trim().split("\n").length, 7);
  } finally {
    await client.close();
    await board.close();
    await redis.stop();
  }
});

Deno.test("an export over the cap stops at the cap's rows and ends by saying so", async () => {
  const redis = await startRedis();
  await loadFixture(redis.url);
  const client = await connectClient(redis.url);
  // The cap lowered (the default, 100,000, is checked above): what crossing it does is the same.
  const cap = 50;
  const board = createBoard(redis.url, { exportCap: cap });
  try {
    const keys = taskKeys("send-email");
    // More completed jobs than the cap, written by one script.
    await client.eval(
      `for i = 1, tonumber(ARGV[1]) do
         local id = 'bulk-' .. i
         redis.call('HSET', KEYS[2] .. id, 'state', 'completed', '_v', '1', 'attempt', '1',
           'maxAttempts', '1', 'ts', ARGV[2], 'finishedOn', ARGV[2], 'data', '{}')
         redis.call('ZADD', KEYS[1], tonumber(ARGV[2]) + i, id)
       end`,
      {
        keys: [keys.completed, keys.jobPrefix],
        arguments: [String(cap + 5), String(Date.now())],
      },
    );
    for (const format of ["ndjson", "csv"]) {
      const response = await get(
        board,
        `/tasks/send-email/jobs/export?state=completed&format=${format}`,
      );
      assert.equal(response.headers.get("x-export-cap"), String(cap));
      const total = Number(response.headers.get("x-export-total"));
      assert.ok(total > cap);
      const lines = (await response.text()).trim().split(/\r?\n/);
      if (format === "csv") {
        // The header, the cap's rows, and the note.
        assert.equal(lines.length, 1 + cap + 1);
        assert.equal(
          lines.at(-1),
          `# truncated: the first ${cap} of ${total} jobs (the export cap)`,
        );
        continue;
      }
      assert.equal(lines.length, cap + 1);
      assert.deepEqual(JSON.parse(lines.at(-1)!), { truncated: true, exported: cap, total, cap });
    }
  } finally {
    await client.close();
    await board.close();
    await redis.stop();
  }
});

Deno.test("bad export parameters are a 400, an unknown task a 404, before the stream", async () => {
  const redis = await startRedis();
  await loadFixture(redis.url);
  const board = createBoard(redis.url);
  try {
    for (
      const [path, status, code] of [
        ["/tasks/send-email/jobs/export?format=xlsx", 400, "INVALID_PARAM"],
        ["/tasks/send-email/jobs/export?state=done", 400, "INVALID_PARAM"],
        ["/tasks/nope/jobs/export", 404, "TASK_NOT_FOUND"],
        ["/dlq/export?pattern=", 400, "INVALID_PARAM"],
        ["/dlq/export?task=nope", 404, "TASK_NOT_FOUND"],
      ] as const
    ) {
      const response = await get(board, path);
      assert.equal(response.status, status, path);
      assert.equal((await response.json()).code, code, path);
    }
  } finally {
    await board.close();
    await redis.stop();
  }
});
