/**
 * A few hundred malformed requests — random paths, methods, bodies, headers
 * and cookies — against a board on a real Redis: no 5xx, no stack, and the
 * keyspace is byte-for-byte what it was.
 */

import assert from "node:assert/strict";
import { auditKey } from "../../src/source/wire/keys.ts";
import { isReplicaBookkeeping } from "../helpers/board_keys.ts";
import { createBoard } from "../helpers/checked_board.ts";
import { loadFixture } from "../helpers/fixture.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";

type Client = Awaited<ReturnType<typeof connectClient>>;

/** Every key with its type, TTL-less value and content, in a comparable form. */
async function snapshot(client: Client): Promise<string> {
  // The board's own trail records refusals (the audit tests read it), and its replica bookkeeping.
  const keys = (await client.keys("*"))
    .filter((key) => key !== auditKey() && key !== auditKey(undefined, "refusals"))
    .filter((key) => !isReplicaBookkeeping(key)).sort();
  const parts: string[] = [];
  for (const key of keys) {
    const dump = await client.sendCommand(["DUMP", key]) as string;
    parts.push(`${key}\u0000${dump}`);
  }
  return parts.join("\u0001");
}

/** A small deterministic random source, so a failure can be replayed. */
function seeded(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  return {
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)],
    int: (max: number) => Math.floor(next() * max),
    text: (length: number) =>
      Array.from({ length }, () => String.fromCharCode(32 + Math.floor(next() * 95))).join(""),
  };
}

const SEGMENTS = [
  "api",
  "jobs",
  "tasks",
  "send-email",
  "retry",
  "cancel",
  "clean",
  "retry-all",
  "dlq",
  "schedules",
  "heartbeat",
  "pause",
  "trigger",
  "workflows",
  "overview",
  "throughput",
  "events",
  "assets",
  "login",
  "auth",
  "..",
  "%2e%2e",
  "%2F",
  "%00",
  "7deea1e0-af8c-4c24-bb84-c89069ee4b0a",
  "<script>",
  "x".repeat(300),
  "",
];
const METHODS = ["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"];
const QUERIES = [
  "",
  "?state=zombie",
  "?limit=-5",
  "?limit=99999999999999999999",
  "?offset=1e3",
  "?state=failed&limit=abc",
  "?task=%00",
  "?since=-1",
  "?bucket=0",
  "?count=100000",
  "?redirect=//evil",
  "?tasks=a,b,,c",
];
const BODIES = [
  undefined,
  "",
  "{",
  "null",
  "[]",
  '{"state":"completed","olderThan":"forever"}',
  '{"reason":{"nested":true}}',
  '{"cron":"* * *"}',
  '{"every":-1}',
  "\u0000\u0001\u0002",
  "x".repeat(5000),
];
const TYPES = [
  "application/json",
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data",
  "",
];
const COOKIES = [
  "",
  "queue_board_session=garbage",
  "queue_board_session=a.b.c",
  "=;;;",
  "a=%E0%A4%A",
];

Deno.test("malformed requests never cause a 5xx and never change the data", async () => {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  await loadFixture(client);
  const before = await snapshot(client);
  const random = seeded(20261123);
  const boards = [
    createBoard(redis.url, { readOnly: true }),
    createBoard(redis.url, {
      auth: { cookiePassword: "a-cookie-secret-of-at-least-32-chars!", authenticate: () => null },
    }),
  ];
  try {
    for (let i = 0; i < 400; i++) {
      const board = boards[i % boards.length];
      const depth = 1 + random.int(4);
      const path = "/board/" + Array.from({ length: depth }, () =>
        random.pick(SEGMENTS)).join("/") +
        random.pick(QUERIES);
      const method = random.pick(METHODS);
      const body = method === "GET" || method === "HEAD" ? undefined : random.pick(BODIES);
      const headers: Record<string, string> = {};
      const type = random.pick(TYPES);
      if (type) headers["content-type"] = type;
      const cookie = random.pick(COOKIES);
      if (cookie) headers.cookie = cookie;
      if (random.int(4) === 0) headers["x-forwarded-proto"] = random.text(8);
      if (random.int(4) === 0) headers["accept-encoding"] = random.text(12);
      const response = await board.fetch(
        new Request(`http://board.test${path}`, { method, headers, body }),
      );
      const text = await response.text();
      assert.ok(
        response.status < 500,
        `${method} ${path} → ${response.status} ${text.slice(0, 200)}`,
      );
      assert.doesNotMatch(text, /at .*\.ts:\d+/, "no stack trace in a response");
    }
  } finally {
    for (const board of boards) await board.close();
  }
  assert.equal(await snapshot(client), before, "the keyspace is unchanged");
  await client.close();
  await redis.stop();
});
