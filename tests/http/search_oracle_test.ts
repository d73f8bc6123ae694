/**
 * A search is no oracle for what redaction hides: on a board that masks
 * `apikey`, guessing a secret right and guessing it wrong give byte-identical
 * search streams (progress frames, counts, cursors) and the same bulk
 * dry-run count, and leave the same short ids findable, on the memory
 * source and on a real Redis, for a substring of `data`, `logs` and `error`
 * and for `path` + `value`.
 */

import assert from "node:assert/strict";
import { createBoard } from "../helpers/checked_board.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import type { TaskSource } from "../../src/source/types.ts";
import { type Fixture, readFixture, writeKeyspace } from "../helpers/fixture.ts";
import { startRedis } from "../helpers/redis_server.ts";

const T = 1_800_000_000_000;
const BASE = "taskora:{vault}";
const SECRET = "sk-live-xyz";
/** As long as the secret, so that nothing but its content differs between two guesses. */
const WRONG = "sk-live-qqq";
const JOBS = 26;

/** The fixture with a task `vault` whose 26 failed jobs carry the secret in data, error and logs. */
function withVault(dump: Fixture): Fixture {
  const keys = { ...dump.keys };
  const failed = [];
  for (let i = 0; i < JOBS; i++) {
    const id = `vault-${String(i).padStart(2, "0")}`;
    failed.push({ value: id, score: T + i });
    keys[`${BASE}:${id}`] = {
      type: "hash",
      pttl: -1,
      value: {
        state: "failed",
        _v: "1",
        attempt: "1",
        maxAttempts: "1",
        ts: String(T - 1000),
        finishedOn: String(T + i),
        data: JSON.stringify({ apikey: SECRET, n: i }),
        error: JSON.stringify({ message: "denied", apikey: SECRET }),
      },
    };
    keys[`${BASE}:${id}:logs`] = {
      type: "list",
      pttl: -1,
      value: [
        JSON.stringify({
          level: "info",
          message: "calling",
          meta: { apikey: SECRET },
          timestamp: T,
        }),
      ],
    };
  }
  keys[`${BASE}:failed`] = { type: "zset", pttl: -1, value: failed };
  return { ...dump, keys };
}

/** The queries to try, each with `{guess}` where the guessed secret goes. */
const QUERIES = [
  "field=data&contains={guess}",
  "field=logs&contains={guess}",
  "field=error&contains={guess}",
  "field=data&path=n&value={guess}",
];

type Fetch = (request: Request) => Response | Promise<Response>;

async function searchText(fetch: Fetch, query: string, limit: number): Promise<string> {
  const response = await fetch(
    new Request(
      `http://board.test/board/api/tasks/vault/jobs/search?state=failed&${query}&limit=${limit}`,
    ),
  );
  assert.equal(response.status, 200, await response.clone().text());
  return await response.text();
}

async function dryRunCount(fetch: Fetch, query: string): Promise<unknown> {
  const filter = Object.fromEntries(new URLSearchParams(query));
  const response = await fetch(
    new Request("http://board.test/board/api/bulk", {
      method: "POST",
      headers: { origin: "http://board.test", "content-type": "application/json" },
      body: JSON.stringify({
        action: "delete",
        selector: { task: "vault", state: "failed", filter },
        dryRun: true,
      }),
    }),
  );
  assert.equal(response.status, 200, await response.clone().text());
  return (await response.json()).count;
}

async function assertNoOracle(fetch: Fetch): Promise<void> {
  for (const query of QUERIES) {
    const right = query.replace("{guess}", SECRET);
    const wrong = query.replace("{guess}", WRONG);
    for (const limit of [1, 50]) {
      const said = await searchText(fetch, right, limit);
      assert.doesNotMatch(said, /sk-live/);
      assert.equal(said, await searchText(fetch, wrong, limit), `${right}&limit=${limit}`);
    }
    assert.equal(await dryRunCount(fetch, right), await dryRunCount(fetch, wrong), right);
  }
}

/**
 * What a board that has served nothing else answers for the short id
 * `vault-0` after searching for `guess`: a search must not make the jobs
 * its prefilter let through findable by their short id.
 */
async function lookupAfterSearch(fetch: Fetch, guess: string): Promise<string> {
  await searchText(fetch, `field=data&contains=${guess}`, 50);
  const response = await fetch(new Request("http://board.test/board/api/jobs/vault-0"));
  return `${response.status} ${await response.text()}`;
}

/** The same short-id answer after a right and a wrong guess, each on a fresh board. */
async function assertLookupAlike(target: string | TaskSource): Promise<void> {
  const [right, wrong] = await Promise.all([SECRET, WRONG].map(async (guess) => {
    const fresh = createBoard(target, { redact: ["apikey"] });
    try {
      return await lookupAfterSearch(fresh.fetch, guess);
    } finally {
      await fresh.close();
    }
  }));
  assert.equal(right, wrong);
}

Deno.test("memory source: a right and a wrong guess of a redacted value search alike", async () => {
  const source = createMemorySource({ seed: withVault(readFixture()) });
  const board = createBoard(source, { redact: ["apikey"] });
  try {
    await assertNoOracle(board.fetch);
    await assertLookupAlike(source);
  } finally {
    await board.close();
    await source.close();
  }
});

Deno.test("redis source: a right and a wrong guess of a redacted value search alike", async () => {
  const redis = await startRedis();
  await writeKeyspace(redis.url, withVault(readFixture()));
  const board = createBoard(redis.url, { redact: ["apikey"] });
  try {
    await assertNoOracle(board.fetch);
    await assertLookupAlike(redis.url);
  } finally {
    await board.close();
    await redis.stop();
  }
});
