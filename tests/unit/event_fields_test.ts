import assert from "node:assert/strict";
import { decodeEventFields } from "../../src/source/wire/event_fields.ts";
import { toTaskEvent } from "../../src/source/redis/event_reader.ts";

Deno.test("decodeEventFields() gives numbers as numbers and parses results, data and progress", () => {
  assert.deepEqual(
    decodeEventFields({
      attempt: "2",
      duration: "12",
      nextAttemptAt: "1795345687929",
      _v: "3",
      result: '{"ok":true}',
      data: "[1,2]",
      value: "50",
    }),
    {
      attempt: 2,
      duration: 12,
      nextAttemptAt: 1795345687929,
      _v: 3,
      result: { ok: true },
      data: [1, 2],
      value: 50,
    },
  );
});

Deno.test("decodeEventFields() keeps text as text, and a value a custom serializer wrote", () => {
  assert.deepEqual(
    decodeEventFields({
      error: '{"looks":"like json"}',
      reason: "42",
      action: "skip",
      result: "not json",
      value: "",
    }),
    {
      error: '{"looks":"like json"}',
      reason: "42",
      action: "skip",
      result: "not json",
      value: "",
    },
  );
});

Deno.test("decodeEventFields() leaves out a numeric field that is no number", () => {
  assert.deepEqual(decodeEventFields({ attempt: "", duration: "soon", count: "7" }), { count: 7 });
});

Deno.test("toTaskEvent() reads an XREAD entry: kind, job, its id and time, fields decoded", () => {
  assert.deepEqual(
    toTaskEvent("mail", "1795345687939-1", [
      "event",
      "completed",
      "jobId",
      "j1",
      "result",
      '"sent"',
      "duration",
      "40",
    ]),
    {
      task: "mail",
      event: "completed",
      jobId: "j1",
      fields: { result: "sent", duration: 40 },
      at: 1795345687939,
      id: "1795345687939-1",
    },
  );
});
