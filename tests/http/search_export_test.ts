/**
 * `GET /tasks/{task}/jobs/search/export`: the exact matches of a search, as
 * CSV or NDJSON, on the memory source and on a real Redis holding the same
 * keyspace. The file names its filter (a `# search:` first line in CSV, a
 * `{ "search": … }` first line in NDJSON, `-search` in the file name), its
 * rows are redacted as the list shows them, and it needs `search` beside
 * `export` (and `payload.read` for a filter by data, result or logs).
 */

import assert from "node:assert/strict";
import { createBoard } from "../helpers/checked_board.ts";
import { CSV_COLUMNS } from "../../src/exports/job_rows.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import { createRedisSource } from "../../src/source/redis/mod.ts";
import type { TaskSource } from "../../src/source/types.ts";
import type { BoardOptions } from "../../src/options.ts";
import { type CommandSender, readFixture, writeKeyspace } from "../helpers/fixture.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { withFinder } from "../contract/search_contract.ts";
import { MAX_SEARCH_PAGE } from "../../src/contract/job_filter.ts";

const API = "http://board.test/board/api/tasks/finder/jobs";

type Harness = { source: TaskSource; close(): Promise<void> };

function memory(): Promise<Harness> {
  const source = createMemorySource({ seed: withFinder(readFixture()) });
  return Promise.resolve({ source, close: () => source.close() });
}

async function redis(): Promise<Harness> {
  const server = await startRedis();
  const client = await connectClient(server.url);
  await writeKeyspace(client as unknown as CommandSender, withFinder(readFixture()));
  await client.close();
  const source = createRedisSource({ url: server.url });
  await source.reconcileRetrying();
  return {
    source,
    close: async () => {
      await source.close();
      await server.stop();
    },
  };
}

/** The ids the search stream finds for `query` (25: one page holds them all). */
async function searchIds(board: ReturnType<typeof createBoard>, query: string) {
  const response = await board.fetch(
    new Request(`${API}/search?${query}&limit=${MAX_SEARCH_PAGE}`),
  );
  return (await response.text()).trim().split("\n").map((line) => JSON.parse(line))
    .filter((frame) => frame.type === "match").map((frame) => frame.job.id as string);
}

for (const [name, open] of [["memory source", memory], ["redis source", redis]] as const) {
  Deno.test(`${name}: a search exports its exact matches as NDJSON, its filter on the first line`, async () => {
    const { source, close } = await open();
    const board = createBoard(source, { redact: ["password"] });
    try {
      const query = "state=completed&field=data&path=user.id&value=42";
      const response = await board.fetch(
        new Request(`${API}/search/export?${query}&format=ndjson`),
      );
      assert.equal(response.status, 200);
      assert.equal(response.headers.get("content-type"), "application/x-ndjson");
      assert.match(
        response.headers.get("content-disposition")!,
        /filename="finder-completed-search\.ndjson"/,
      );
      const [meta, ...jobs] = (await response.text()).trim().split("\n").map((l) => JSON.parse(l));
      assert.deepEqual(meta, {
        search: {
          task: "finder",
          state: "completed",
          filter: { field: "data", path: "user.id", value: "42" },
        },
      });
      const expected = await searchIds(board, query);
      assert.equal(expected.length, 25);
      assert.deepEqual(jobs.map((job) => job.id), expected, "the same jobs, in list order");
      assert.ok(jobs.every((job) => job.state === "completed" && !("data" in job)));
    } finally {
      await close();
    }
  });

  Deno.test(`${name}: a search exports as CSV after a # search line, redacted as the list shows it`, async () => {
    const { source, close } = await open();
    const board = createBoard(source, { redact: ["password"] });
    try {
      const response = await board.fetch(
        new Request(`${API}/search/export?state=failed&field=error&contains=bad%20card`),
      );
      assert.equal(response.status, 200);
      assert.equal(response.headers.get("content-type"), "text/csv; charset=utf-8");
      const lines = (await response.text()).split("\r\n");
      assert.equal(lines[0], "# search: state=failed field=error contains=bad card");
      assert.equal(lines[1], CSV_COLUMNS.join(","));
      assert.equal(lines.filter(Boolean).length, 3, "the two lines and the one match");
      assert.ok(lines[2].startsWith("fail-3,finder,failed,"));
      assert.ok(lines[2].includes("[REDACTED]") && !lines[2].includes("hunter2"));

      const hidden = await board.fetch(
        new Request(`${API}/search/export?state=failed&field=error&contains=hunter2&format=ndjson`),
      );
      assert.deepEqual((await hidden.text()).trim().split("\n").length, 1, "the meta line only");
    } finally {
      await close();
    }
  });
}

Deno.test("a search export needs search and export, and payload.read to filter by data", async () => {
  const { source, close } = await memory();
  const allowed = (allow: string[]): BoardOptions => ({
    auth: () => ({ name: "ann" }),
    can: (_user, action) => allow.includes(action),
  });
  try {
    const ask = async (allow: string[], query: string) => {
      const board = createBoard(source, allowed(allow));
      const response = await board.fetch(new Request(`${API}/search/export?${query}`));
      const body = response.status === 200 ? null : await response.json();
      if (body === null) await response.body?.cancel();
      return { status: response.status, param: body?.param };
    };
    const byError = "state=failed&field=error&contains=REFUSED";
    const byData = "state=completed&field=data&contains=User";
    assert.deepEqual(await ask(["search"], byError), { status: 403, param: "export" });
    assert.deepEqual(await ask(["export"], byError), { status: 403, param: "search" });
    assert.deepEqual(await ask(["export", "search"], byError), { status: 200, param: undefined });
    assert.deepEqual(await ask(["export", "search"], byData), {
      status: 403,
      param: "payload.read",
    });
    assert.deepEqual(await ask(["export", "search", "payload.read"], byData), {
      status: 200,
      param: undefined,
    });
  } finally {
    await close();
  }
});

Deno.test("bad search export parameters are a 400 naming them, an unknown task a 404", async () => {
  const { source, close } = await memory();
  const board = createBoard(source);
  try {
    for (
      const [query, status, param] of [
        ["state=failed&field=nope&contains=x", 400, "field"],
        ["state=failed&contains=x", 400, "field"],
        ["state=failed&field=error&contains=x&format=xlsx", 400, "format"],
        ["state=done&field=error&contains=x", 400, "state"],
      ] as const
    ) {
      const response = await board.fetch(new Request(`${API}/search/export?${query}`));
      assert.equal(response.status, status, query);
      assert.equal((await response.json()).param, param, query);
    }
    const unknown = await board.fetch(
      new Request(
        "http://board.test/board/api/tasks/nope/jobs/search/export?field=error&contains=x",
      ),
    );
    assert.equal(unknown.status, 404);
    assert.equal((await unknown.json()).code, "TASK_NOT_FOUND");
  } finally {
    await close();
  }
});
