/**
 * `GET /tasks/{task}/jobs/search`: an NDJSON stream of progress, matches and
 * an end line whose cursor continues the search; bad filters are a 400
 * naming the parameter before any byte is sent; a client that goes away
 * stops the scan; redacted values are neither shown nor matched; a board
 * runs at most four scans at once.
 */

import assert from "node:assert/strict";
import { createBoard } from "../helpers/checked_board.ts";
import type { SearchFrame } from "../../src/contract/job_filter.ts";
import { SearchFrameSchema } from "../../src/api/schema/search.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import type { TaskSource } from "../../src/source/types.ts";
import { readFixture } from "../helpers/fixture.ts";
import { withFinder } from "../contract/search_contract.ts";

const SEARCH = "http://board.test/board/api/tasks/finder/jobs/search";

function boardOn(source: TaskSource) {
  return createBoard(source, { redact: ["password"] });
}

/** The frames of a search answer, each checked against the route's documented line schema. */
async function frames(response: Response): Promise<SearchFrame[]> {
  assert.equal(response.status, 200, await response.clone().text());
  assert.equal(response.headers.get("content-type"), "application/x-ndjson");
  return (await response.text()).trim().split("\n").map((line) =>
    SearchFrameSchema.parse(JSON.parse(line))
  );
}

Deno.test("a search streams its matches, progress, and an end line with the cursor to continue", async () => {
  const source = createMemorySource({ seed: withFinder(readFixture()) });
  const board = boardOn(source);
  try {
    const query = "state=completed&field=data&path=user.id&value=42";
    const first = await frames(await board.fetch(new Request(`${SEARCH}?${query}&limit=10`)));
    const matches = first.filter((f) => f.type === "match");
    assert.equal(matches.length, 10);
    assert.ok(first.some((f) => f.type === "progress"));
    const end = first.at(-1)!;
    assert.equal(end.type, "end");
    if (end.type !== "end") return;
    assert.equal(end.reason, "page");
    assert.equal(end.found, 10);
    assert.equal(end.total, 2503);
    assert.ok(end.cursor);

    const more = await frames(
      await board.fetch(new Request(`${SEARCH}?${query}&cursor=${end.cursor}&limit=200`)),
    );
    const last = more.at(-1)!;
    assert.equal(last.type, "end");
    if (last.type !== "end") return;
    assert.equal(last.reason, "done");
    assert.equal(last.cursor, null);
    assert.equal(last.scanned, 2503, "the scan count goes on across the continue");
    const ids = [...matches, ...more.filter((f) => f.type === "match")].map((f) =>
      f.type === "match" ? f.job.id : ""
    );
    assert.equal(ids.length, 25); // user.id 42 for i = 42, 142, … 2442
    assert.equal(new Set(ids).size, 25);
  } finally {
    await source.close();
  }
});

Deno.test("search answers show redacted errors and never match what redaction hides", async () => {
  const source = createMemorySource({ seed: withFinder(readFixture()) });
  const board = boardOn(source);
  try {
    const hidden = await frames(
      await board.fetch(new Request(`${SEARCH}?state=failed&field=error&contains=hunter2`)),
    );
    assert.deepEqual(hidden.filter((f) => f.type === "match"), []);
    const shown = await frames(
      await board.fetch(new Request(`${SEARCH}?state=failed&field=error&contains=bad%20card`)),
    );
    const [match] = shown.filter((f) => f.type === "match");
    assert.ok(match?.type === "match");
    assert.doesNotMatch(JSON.stringify(match), /hunter2/);
    assert.match(match.job.error ?? "", /REDACTED/);
  } finally {
    await source.close();
  }
});

Deno.test("bad filters are a 400 INVALID_PARAM naming the parameter", async () => {
  const source = createMemorySource({ seed: withFinder(readFixture()) });
  const board = boardOn(source);
  const cases: [string, string][] = [
    ["from=yesterday", "from"],
    ["from=2026-02-30", "from"],
    ["from=2026-11-23T10:00:00", "from"], // a date-time without a zone
    ["to=1e12", "to"],
    ["from=2000&to=1000", "to"],
    ["field=payload&contains=x", "field"],
    ["contains=x", "field"],
    ["field=data", "contains"],
    ["field=data&path=user.id", "value"],
    ["field=data&path=user..id&value=1", "path"],
    [`field=data&path=${Array(17).fill("a").join(".")}&value=1`, "path"],
    ["field=data&path=user.Password&value=1", "path"],
    ["field=data&path=a&value=1&contains=x", "path"],
    [`field=data&contains=${"x".repeat(257)}`, "contains"],
    [`id=${"x".repeat(201)}`, "id"],
    ["cursor=%%%", "cursor"],
    ["cursor=bm90IGEgY3Vyc29y", "cursor"],
    ["limit=0", "limit"],
    ["limit=201", "limit"],
    ["state=bogus", "state"],
  ];
  try {
    for (const [query, param] of cases) {
      const state = query.startsWith("state=") ? "" : "state=completed&";
      const response = await board.fetch(new Request(`${SEARCH}?${state}${query}`));
      assert.equal(response.status, 400, `${query}: ${await response.clone().text()}`);
      const body = await response.json();
      assert.equal(body.code, "INVALID_PARAM", query);
      assert.equal(body.param, param, `${query}: ${body.error}`);
    }
    const waitingCursor = (await frames(
      await board.fetch(new Request(`${SEARCH}?state=waiting&limit=1`)),
    )).at(-1);
    assert.ok(waitingCursor?.type === "end" && waitingCursor.cursor);
    const crossed = await board.fetch(
      new Request(`${SEARCH}?state=completed&cursor=${waitingCursor.cursor}`),
    );
    assert.equal((await crossed.json()).param, "cursor", "a cursor is for its own state");
    const unknown = await board.fetch(
      new Request(`${SEARCH.replace("finder", "nope")}?state=waiting`),
    );
    assert.equal(unknown.status, 404);
  } finally {
    await source.close();
  }
});

Deno.test("an empty value= is a value: the search looks for the empty string", async () => {
  const source = createMemorySource({ seed: withFinder(readFixture()) });
  const board = boardOn(source);
  try {
    const query = "state=failed&field=data&path=user.name&value=";
    const answer = await frames(await board.fetch(new Request(`${SEARCH}?${query}`)));
    const end = answer.at(-1)!;
    assert.equal(end.type, "end");
    assert.equal(end.type === "end" && end.found, 0);
  } finally {
    await source.close();
  }
});

Deno.test("a client that goes away stops the scan before the next slice", async () => {
  const inner = createMemorySource({ seed: withFinder(readFixture()) });
  let calls = 0;
  let release = () => {};
  // Every slice after the first waits until the test lets it go.
  const source: TaskSource = Object.assign(Object.create(inner), {
    searchJobs: async (...args: Parameters<NonNullable<TaskSource["searchJobs"]>>) => {
      calls++;
      if (calls > 1) await new Promise<void>((resolve) => release = resolve);
      return await inner.searchJobs(...args);
    },
  });
  const board = boardOn(source);
  const abort = new AbortController();
  try {
    // Nothing matches: without the abort the scan would take three slices.
    const response = await board.fetch(
      new Request(`${SEARCH}?state=completed&field=data&contains=no-such-text`, {
        signal: abort.signal,
      }),
    );
    const reader = response.body!.getReader();
    const { value } = await reader.read();
    assert.match(new TextDecoder().decode(value), /"progress"/);
    abort.abort();
    release();
    await reader.read().catch(() => {});
    await reader.cancel().catch(() => {});
    // Let the route take its turn after the released slice.
    await new Promise((resolve) => setTimeout(resolve, 0));
    release();
    assert.equal(calls, 2);
  } finally {
    await inner.close();
  }
});

Deno.test("a source that cannot search says so, with INVALID_STATE", async () => {
  const inner = createMemorySource({ seed: withFinder(readFixture()) });
  const source: TaskSource = Object.assign(Object.create(inner), { searchJobs: undefined });
  try {
    const response = await boardOn(source).fetch(new Request(`${SEARCH}?state=waiting`));
    assert.equal(response.status, 409);
    assert.deepEqual(await response.json(), {
      error: "This task source cannot search jobs",
      code: "INVALID_STATE",
    });
  } finally {
    await inner.close();
  }
});

Deno.test("a board runs at most four scans at once; a fifth search or state count is refused until one ends", async () => {
  const inner = createMemorySource({ seed: withFinder(readFixture()) });
  const waiting: (() => void)[] = [];
  let gated = true;
  // Each search's slices after its first wait until the test lets them go.
  const searchJobs = async (...args: Parameters<NonNullable<TaskSource["searchJobs"]>>) => {
    const [, , , position] = args;
    if (gated && position !== null) {
      await new Promise<void>((resolve) => waiting.push(resolve));
    }
    return await inner.searchJobs(...args);
  };
  const source = new Proxy(inner, {
    get(target, key) {
      if (key === "searchJobs") return searchJobs;
      const value = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const board = boardOn(source);
  const search = `${SEARCH}?state=completed&field=data&contains=no-such-text`;
  try {
    const running = [];
    for (let i = 0; i < 4; i++) {
      const response = await board.fetch(new Request(search));
      const reader = response.body!.getReader();
      assert.match(new TextDecoder().decode((await reader.read()).value), /"progress"/);
      running.push(reader);
    }
    const refused = await board.fetch(new Request(search));
    assert.equal(refused.status, 409);
    assert.match((await refused.json()).error, /4 searches or filter counts are running/);
    const dryRun = (selector: Record<string, unknown>) =>
      board.fetch(
        new Request("http://board.test/board/api/bulk", {
          method: "POST",
          headers: { origin: "http://board.test", "content-type": "application/json" },
          body: JSON.stringify({ action: "delete", selector, dryRun: true }),
        }),
      );
    // Counting a state holds a slot: it may walk it (a filter's matches, the delayed set).
    for (
      const selector of [
        { task: "finder", state: "completed", filter: { field: "data", contains: "x" } },
        { task: "finder", state: "completed" },
      ]
    ) {
      const refusedCount = await dryRun(selector);
      assert.equal(refusedCount.status, 409);
      assert.equal((await refusedCount.json()).code, "INVALID_STATE");
    }
    // Named jobs are counted one by one, not scanned.
    assert.equal((await dryRun({ task: "finder", ids: ["fail-1"] })).status, 200);

    // Let every scan run to its end: their slots free up.
    gated = false;
    waiting.splice(0).forEach((go) => go());
    for (const reader of running) while (!(await reader.read()).done);
    assert.equal((await frames(await board.fetch(new Request(search)))).at(-1)?.type, "end");
  } finally {
    await inner.close();
  }
});

Deno.test("a search refused at its first slice gives its scan slot back", async () => {
  const source = createMemorySource({ seed: withFinder(readFixture()) });
  const board = boardOn(source);
  try {
    const ghost = "http://board.test/board/api/tasks/ghost/jobs/search?state=waiting";
    for (let i = 0; i < 6; i++) {
      const response = await board.fetch(new Request(ghost));
      assert.equal(response.status, 404, `search ${i + 1}`);
      assert.equal((await response.json()).code, "TASK_NOT_FOUND");
    }
  } finally {
    await source.close();
  }
});
