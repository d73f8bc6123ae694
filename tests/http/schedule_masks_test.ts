/**
 * Editing a schedule never writes back what the board masked: on a board
 * that redacts `token`, the data the editor sends keeps the stored value
 * under every masked key, a mask where nothing is stored is a 400 naming
 * the field, and a board that reshapes data (`formatters.data`) refuses
 * data edits as it refuses edited retries. On the memory source and on a
 * real Redis.
 */

import assert from "node:assert/strict";
import { createBoard } from "../helpers/checked_board.ts";
import { REDACTED } from "../../src/contract/masks.ts";
import type { BoardOptions } from "../../src/options.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import { type Fixture, readFixture, writeKeyspace } from "../helpers/fixture.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";

const NAME = "vault-sync";
const STORED = {
  region: "eu",
  token: "s3cret",
  db: { host: "db-1", Token: "t2" },
  targets: [{ url: "https://a.test", token: "a-token" }],
};

/** The fixture with a schedule whose data holds secrets at three depths. */
function withVaultSchedule(dump: Fixture): Fixture {
  const keys = { ...dump.keys };
  const schedules = keys["taskora:schedules"];
  assert.ok(schedules.type === "hash");
  keys["taskora:schedules"] = {
    ...schedules,
    value: {
      ...schedules.value,
      [NAME]: JSON.stringify({
        task: "report",
        overlap: false,
        onMissed: "skip",
        every: 60_000,
        data: STORED,
      }),
    },
  };
  return { ...dump, keys };
}

type Call = (method: string, path: string, body?: unknown) => Promise<Response>;

interface Harness {
  call: Call;
  /** The schedule's data as stored, unredacted. */
  stored(): Promise<unknown>;
}

async function onBothSources(
  options: BoardOptions,
  body: (harness: Harness) => Promise<void>,
): Promise<void> {
  const dump = withVaultSchedule(readFixture());
  const memory = createMemorySource({ seed: dump });
  const redis = await startRedis();
  await writeKeyspace(redis.url, dump);
  const client = await connectClient(redis.url);
  const sources = [
    {
      target: memory,
      stored: () => Promise.resolve(JSON.parse(memory.store.schedules.get(NAME)!.json).data),
    },
    {
      target: redis.url,
      stored: async () => JSON.parse((await client.hGet("taskora:schedules", NAME))!).data,
    },
  ];
  try {
    for (const { target, stored } of sources) {
      const board = createBoard(target, options);
      const call: Call = async (method, path, payload) =>
        await board.fetch(
          new Request(`http://board.test/board/api${path}`, {
            method,
            headers: { origin: "http://board.test", "content-type": "application/json" },
            body: payload === undefined ? undefined : JSON.stringify(payload),
          }),
        );
      try {
        await body({ call, stored });
      } finally {
        await board.close();
      }
    }
  } finally {
    client.destroy();
    await memory.close();
    await redis.stop();
  }
}

async function shownData(call: Call): Promise<Record<string, unknown>> {
  const schedules = await (await call("GET", "/schedules")).json();
  return schedules.find((s: { name: string }) => s.name === NAME).config.data;
}

Deno.test("a schedule's data sent back with its masks keeps every stored secret", async () => {
  await onBothSources({ redact: ["token"] }, async ({ call, stored }) => {
    const shown = await shownData(call);
    assert.deepEqual(shown, {
      region: "eu",
      token: REDACTED,
      db: { host: "db-1", Token: REDACTED },
      targets: [{ url: "https://a.test", token: REDACTED }],
    });
    // What the editor sends: what it was shown, one field changed.
    const response = await call("PUT", `/schedules/${NAME}`, { data: { ...shown, region: "us" } });
    assert.equal(response.status, 200, await response.clone().text());
    assert.deepEqual(await stored(), { ...STORED, region: "us" });
    assert.equal((await response.json()).schedule.config.data.token, REDACTED);
  });
});

Deno.test("a masked key keeps its stored value whatever is sent for it", async () => {
  await onBothSources({ redact: ["token"] }, async ({ call, stored }) => {
    const shown = await shownData(call);
    const response = await call("PUT", `/schedules/${NAME}`, {
      data: { ...shown, token: "typed" },
    });
    assert.equal(response.status, 200);
    assert.deepEqual(await stored(), STORED);
  });
});

Deno.test("a mask where nothing is stored is a 400 naming the field, and nothing is written", async () => {
  await onBothSources({ redact: ["token"] }, async ({ call, stored }) => {
    const shown = await shownData(call);
    const response = await call("PUT", `/schedules/${NAME}`, {
      data: { ...shown, extra: { token: REDACTED } },
    });
    assert.equal(response.status, 400);
    const body = await response.json();
    assert.equal(body.code, "INVALID_PARAM");
    assert.equal(body.param, "data");
    assert.match(body.error, /data\.extra\.token/);
    assert.deepEqual(await stored(), STORED);
  });
});

Deno.test("a board that reshapes data refuses a schedule's data, and still edits its timing", async () => {
  const formatters = { data: (value: unknown) => ({ shown: value }) };
  await onBothSources({ formatters }, async ({ call, stored }) => {
    const shown = await shownData(call);
    const refused = await call("PUT", `/schedules/${NAME}`, { data: shown });
    assert.equal(refused.status, 400);
    const body = await refused.json();
    assert.equal(body.param, "data");
    assert.match(body.error, /formatters\.data/);
    assert.deepEqual(await stored(), STORED);
    const timing = await call("PUT", `/schedules/${NAME}`, { every: "5m" });
    assert.equal(timing.status, 200);
    assert.deepEqual(await stored(), STORED);
  });
});
