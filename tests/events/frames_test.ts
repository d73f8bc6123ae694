/**
 * A task event as the stream sends it: the fields the source decoded,
 * results and progress objects formatted and redacted like the REST API.
 */

import assert from "node:assert/strict";
import { createPresenter } from "../../src/contract/present.ts";
import { jobEventName, jobEventPayload } from "../../src/events/frames.ts";
import { frameMessage } from "../../src/events/sse.ts";

const present = createPresenter({
  redact: ["password"],
  formatters: { result: (value, task) => task === "wrap" ? { wrapped: value } : value },
});

Deno.test("jobEventPayload() formats and redacts results, keeps numbers, redacts JSON errors", () => {
  const completed = jobEventPayload({
    task: "wrap",
    event: "completed",
    jobId: "j1",
    at: 1000,
    fields: { result: { password: "x", ok: true }, duration: 12, attempt: 2 },
  }, present);
  assert.deepEqual(completed, {
    id: "j1",
    task: "wrap",
    at: 1000,
    result: { wrapped: { password: "[REDACTED]", ok: true } },
    duration: 12,
    attempt: 2,
  });

  const retrying = jobEventPayload({
    task: "t",
    event: "retrying",
    jobId: "j2",
    at: 1,
    fields: { attempt: 2, nextAttemptAt: 1795345687929, error: '{"password":"p"}' },
  }, present);
  assert.deepEqual(retrying, {
    id: "j2",
    task: "t",
    at: 1,
    attempt: 2,
    nextAttemptAt: 1795345687929,
    error: '{"password":"[REDACTED]"}',
  });
});

Deno.test("jobEventPayload() keeps progress numbers and redacts progress objects", () => {
  const progress = (value: unknown) =>
    jobEventPayload({ task: "t", event: "progress", jobId: "j", at: 0, fields: { value } }, present)
      .value;
  assert.equal(progress(50), 50);
  assert.deepEqual(progress({ step: "render", password: "s" }), {
    step: "render",
    password: "[REDACTED]",
  });
  assert.equal(
    jobEventPayload(
      { task: "t", event: "failed", jobId: "j", at: 0, fields: { error: "boom 42" } },
      present,
    )
      .error,
    "boom 42",
  );
});

Deno.test("jobEventPayload() never lets a field replace the id, task or time", () => {
  const payload = jobEventPayload(
    { task: "t", event: "active", jobId: "j", at: 5, fields: { id: "forged", at: 0 } },
    present,
  );
  assert.deepEqual(payload, { id: "j", task: "t", at: 5 });
});

Deno.test("jobEventName() names kinds job:<kind> and refuses what cannot be an event line", () => {
  assert.equal(jobEventName("completed"), "job:completed");
  assert.equal(jobEventName("stalled"), "job:stalled");
  assert.equal(jobEventName("bad\nkind"), null);
});

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

Deno.test("frameMessage() frames an SSE message synchronously: event, data, blank line", () => {
  const bytes = frameMessage({ event: "job:active", data: '{"id":"1"}' });
  assert.equal(text(bytes), 'event: job:active\ndata: {"id":"1"}\n\n');
});

Deno.test("frameMessage() gives each line of the data its own data: line, and sends the id", () => {
  assert.equal(
    text(frameMessage({ event: "note", data: "one\r\ntwo\rthree\nfour", id: "7" })),
    "event: note\ndata: one\ndata: two\ndata: three\ndata: four\nid: 7\n\n",
  );
  assert.equal(text(frameMessage({ data: "" })), "data: \n\n", "no event: the default message");
});

Deno.test("frameMessage() refuses a line break in event or id (it would inject a field)", () => {
  assert.throws(() => frameMessage({ event: "x\ndata: forged", data: "{}" }), /event/);
  assert.throws(() => frameMessage({ event: "x", data: "{}", id: "1\rretry: 1" }), /id/);
});
