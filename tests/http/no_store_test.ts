/**
 * `Cache-Control: no-store` on every answer that carries job data or needs a
 * session, so no browser cache, proxy or back button keeps one: every GET
 * route of the OpenAPI document, whatever its status, on an open board and
 * under session login and behind an auth hook; under session login also
 * the UI and the metrics, while the public assets stay cacheable.
 */

import assert from "node:assert/strict";
import { apiRouteConfigs, createBoard } from "../helpers/checked_board.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import { readFixture } from "../helpers/fixture.ts";
import { ADA_LOGIN, signInAda } from "../helpers/session_login.ts";
import { assets } from "../../ui/dist/assets.ts";

const FAILED = "7deea1e0-af8c-4c24-bb84-c89069ee4b0a";

/** A value for each path parameter of the API: a real task, job and schedule of the fixture. */
const PARAMS: Record<string, string> = {
  task: "send-email",
  jobId: FAILED,
  index: "0",
  field: "data",
  id: "no-such-id",
};

/** Every GET route of the API, its parameters filled in, with a state for the routes that take one. */
function getPaths(): string[] {
  return apiRouteConfigs().filter((route) => route.method === "get").map((route) =>
    `${route.path.replaceAll(/{(\w+)}/g, (_, name: string) => PARAMS[name])}?state=failed`
  );
}

type Fetch = (request: Request) => Response | Promise<Response>;

/** The Cache-Control of `GET path`; the body (an SSE stream never ends) is not read. */
async function cacheControl(fetch: Fetch, path: string, cookie?: string) {
  const response = await fetch(
    new Request(`http://board.test${path}`, { headers: cookie ? { cookie } : {} }),
  );
  await response.body?.cancel();
  return { status: response.status, cacheControl: response.headers.get("cache-control") };
}

async function assertEveryApiAnswerNoStore(fetch: Fetch, cookie?: string): Promise<void> {
  const paths = getPaths();
  assert.ok(paths.length >= 25, `the document lists the GET routes (${paths.length})`);
  for (const path of paths) {
    const { status, cacheControl: got } = await cacheControl(fetch, `/board/api${path}`, cookie);
    assert.equal(got, "no-store", `${path} (${status})`);
  }
}

Deno.test("every GET route of the API answers with Cache-Control: no-store", async () => {
  const source = createMemorySource({ seed: readFixture() });
  const board = createBoard(source, { redact: ["password"], metrics: {} });
  try {
    await assertEveryApiAnswerNoStore(board.fetch);
  } finally {
    await board.close();
    await source.close();
  }
});

Deno.test("under session login every answer that needs the session is no-store, assets stay cacheable", async () => {
  const source = createMemorySource({ seed: readFixture() });
  const board = createBoard(source, { metrics: {}, auth: ADA_LOGIN });
  try {
    const cookie = await signInAda(board.fetch);
    await assertEveryApiAnswerNoStore(board.fetch, cookie);
    for (const path of ["/board/", "/board/tasks/send-email", "/board/metrics"]) {
      assert.equal((await cacheControl(board.fetch, path, cookie)).cacheControl, "no-store", path);
    }
    assert.deepEqual(await cacheControl(board.fetch, "/board/api/overview"), {
      status: 401,
      cacheControl: "no-store",
    });
    const [asset] = Object.keys(assets);
    const served = await cacheControl(board.fetch, `/board/assets/${asset}`, cookie);
    assert.equal(served.status, 200);
    assert.match(served.cacheControl ?? "", /immutable/);
  } finally {
    await board.close();
    await source.close();
  }
});

Deno.test("an auth hook's own answer, headers immutable, is no-store too", async () => {
  const source = createMemorySource();
  const board = createBoard(source, {
    auth: () => Response.redirect("http://sso.test/login", 302),
  });
  try {
    assert.deepEqual(await cacheControl(board.fetch, "/board/api/overview"), {
      status: 302,
      cacheControl: "no-store",
    });
  } finally {
    await board.close();
    await source.close();
  }
});
