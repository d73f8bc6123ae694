/**
 * `GET /history/jobs/export`: a history search as CSV and NDJSON, against a
 * real taskora 0.5.0 worker on Redis: its rows are the jobs the search finds,
 * newest first, errors redacted and no payloads; it needs `export` and
 * `history.read`; a bad field is a 400 naming it.
 */

// deno-lint-ignore-file no-explicit-any
import assert from "node:assert/strict";
import { HISTORY_CSV_COLUMNS } from "../../src/exports/history_rows.ts";
import { presetCan } from "../../src/auth/permissions.ts";
import { mismatch, routeOf } from "../helpers/checked_board.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { type AppWorld, taskOf, withApp } from "./harness.ts";

type Board = AppWorld["board"];

/** GET `path` under the board's API as `user` (`name:role`), checked against its route. */
async function exported(board: Board, path: string, user = "root:admin") {
  const response = await board.fetch(
    new Request(`http://localhost/board/api${path}`, { headers: { "x-user": user } }),
  );
  const route = routeOf("GET", new URL(path, "http://x").pathname);
  assert.ok(route, `a documented route for ${path}`);
  const wrong = await mismatch(route, "GET", response.clone(), { hook: true });
  assert.equal(wrong, null, `${path}: ${wrong}`);
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** A task whose job fails when its input says so, its error holding a token redaction hides. */
function chargeCard(app: any) {
  app.task("charge-card", {
    retry: { attempts: 1 },
    handler: (data: { fail: boolean }) => {
      if (data.fail) {
        throw new Error(JSON.stringify({ token: "s3cret-opensesame", reason: "declined" }));
      }
      return { charged: true };
    },
  });
}

Deno.test("a history search exports as CSV and NDJSON: its jobs newest first, redacted, without payloads", async () => {
  await withApp("redis", chargeCard, async (world) => {
    const task = taskOf(world.app, "charge-card");
    const ok = String(await task.dispatch({ fail: false }));
    const failed = String(await task.dispatch({ fail: true }));
    await waitFor(async () => {
      const { text } = await exported(world.board, "/history/jobs/export?task=charge-card");
      return text.trim().split("\n").length === 3;
    }, { what: "both jobs recorded" });

    const csv = await exported(world.board, "/history/jobs/export?task=charge-card");
    assert.equal(csv.status, 200);
    assert.match(csv.headers.get("content-type")!, /^text\/csv/);
    assert.match(csv.headers.get("content-disposition")!, /filename="history-charge-card\.csv"/);
    assert.equal(csv.headers.get("x-export-cap"), "100000");
    const [header, ...rows] = csv.text.trim().split("\r\n");
    assert.equal(header, HISTORY_CSV_COLUMNS.join(","));
    const byId = new Map(rows.map((row) => [row.split(",")[0], row]));
    assert.deepEqual([...byId.keys()].sort(), [ok, failed].sort());
    assert.match(byId.get(failed)!, /declined/);
    assert.doesNotMatch(
      csv.text,
      /s3cret|opensesame/,
      "the token is redacted, in the error's shape too",
    );

    const ndjson = await exported(
      world.board,
      "/history/jobs/export?format=ndjson&state=failed&error=declined",
    );
    assert.equal(ndjson.status, 200);
    const jobs = ndjson.text.trim().split("\n").map((line) => JSON.parse(line));
    assert.deepEqual(jobs.map((job) => [job.id, job.task, job.state]), [
      [failed, "charge-card", "failed"],
    ]);
    assert.ok(!("data" in jobs[0]) && !("result" in jobs[0]), "no payloads in an export");
    assert.doesNotMatch(ndjson.text, /s3cret|opensesame/);

    const all = await exported(world.board, "/history/jobs/export?format=ndjson");
    const ends = all.text.trim().split("\n").map((line) => JSON.parse(line).finishedAt);
    assert.equal(ends.length, 2);
    assert.deepEqual(ends, [...ends].sort((a, b) => b - a), "newest first");
  }, {
    boardOn: "url",
    board: {
      history: { payloads: true },
      redact: ["token"],
      auth: (request) => {
        const [name, role] = (request.headers.get("x-user") ?? "").split(":");
        return name ? { name, role } : undefined;
      },
    },
  });
});

Deno.test("a history export needs export and history.read; a bad field is a 400 naming it", async () => {
  await withApp("redis", chargeCard, async (world) => {
    await taskOf(world.app, "charge-card").dispatch({ fail: false });
    await waitFor(async () => {
      const { text } = await exported(world.board, "/history/jobs/export?task=charge-card");
      return text.trim().split("\n").length === 2;
    }, { what: "the job recorded" });
    for (
      const [query, param] of [
        ["state=done", "state"],
        ["format=xml", "format"],
        ["from=yesterday", "from"],
        ["version=v1", "version"],
        [`error=${"x".repeat(201)}`, "error"],
      ]
    ) {
      const { status, text } = await exported(world.board, `/history/jobs/export?${query}`);
      assert.equal(status, 400, query);
      assert.equal(JSON.parse(text).param, param, query);
    }
    const viewer = await exported(world.board, "/history/jobs/export", "vic:viewer");
    assert.equal(viewer.status, 403, "a viewer reads the history but exports nothing");
    assert.equal(JSON.parse(viewer.text).param, "export");
    const unread = await exported(
      world.board,
      "/history/jobs/export?task=charge-card",
      "mal:operator",
    );
    assert.equal(unread.status, 403, "one who may export but not read the history");
    assert.equal(JSON.parse(unread.text).param, "history.read");
  }, {
    boardOn: "url",
    board: {
      history: true,
      auth: (request) => {
        const [name, role] = (request.headers.get("x-user") ?? "").split(":");
        return name ? { name, role } : undefined;
      },
      can: (user, action, target) =>
        user?.name === "mal" ? action !== "history.read" : presetCan(user, action, target),
    },
  });
});
