/**
 * The UI's API client (`ui/lib/api.ts`), typed by the endpoint map: a call
 * names a route by its pattern and gets that route's answer type, so a
 * wrong path, parameter, query, body or answer type fails `deno check` (an
 * unused `@ts-expect-error` fails it too, the day a check stops holding).
 * At run time the pattern becomes the URL the server routes.
 */

import assert from "node:assert/strict";
import type { BulkOperation } from "../../src/contract/bulk.ts";
import type { JobDetailResponse } from "../../src/contract/jobs.ts";
import { type Api, ApiError, createApi, urlOf } from "../../ui/lib/api.ts";

/** A client whose requests are recorded, each answered with `body`. */
function recordingApi(body: unknown = {}): { api: Api; sent: Request[]; restore(): void } {
  const sent: Request[] = [];
  const real = globalThis.fetch;
  globalThis.fetch = (input, init) => {
    sent.push(new Request(new URL(String(input), "http://board.test"), init));
    return Promise.resolve(Response.json(body, { headers: { "x-total-count": "7" } }));
  };
  return { api: createApi("/board/"), sent, restore: () => globalThis.fetch = real };
}

Deno.test("urlOf() fills in the path parameters, encoded, and appends the query given", () => {
  assert.equal(urlOf("/overview"), "overview");
  assert.equal(
    urlOf("/jobs/{jobId}/logs/{index}/meta", { params: { jobId: "a/b c", index: "3" } }),
    "jobs/a%2Fb%20c/logs/3/meta",
  );
  assert.equal(
    urlOf("/tasks/{task}/liveness", { params: { task: "send" }, query: { id: ["j1", "j 2"] } }),
    "tasks/send/liveness?id=j1&id=j+2",
  );
  // Absent is left out; empty is sent (the server reads it as absent, but `value=` is a value).
  assert.equal(
    urlOf("/jobs/{jobId}/logs", {
      params: { jobId: "j" },
      query: { offset: 0, limit: 5, level: "", attempt: undefined },
    }),
    "jobs/j/logs?offset=0&limit=5&level=",
  );
  // @ts-expect-error a link names a route as a call does
  urlOf("/tasks/{task}/export", { params: { task: "t" } });
});

Deno.test("get, getPage and send request the route the pattern names", async () => {
  const { api, sent, restore } = recordingApi([]);
  try {
    await api.get("/tasks/{task}/stats", { params: { task: "send email" } });
    const page = await api.getPage("/tasks/{task}/jobs", {
      params: { task: "send" },
      query: { state: "failed", limit: 20, offset: 40 },
    });
    await api.send("POST", "/jobs/{jobId}/cancel", {
      params: { jobId: "j1" },
      body: { reason: "stuck" },
      idempotencyKey: "k1",
    });
    await api.send("POST", "/sessions/mine/revoke");
    assert.deepEqual(page, { items: [], total: 7 });
    assert.deepEqual(sent.map((request) => `${request.method} ${request.url}`), [
      "GET http://board.test/board/api/tasks/send%20email/stats",
      "GET http://board.test/board/api/tasks/send/jobs?state=failed&limit=20&offset=40",
      "POST http://board.test/board/api/jobs/j1/cancel",
      "POST http://board.test/board/api/sessions/mine/revoke",
    ]);
    assert.equal(await sent[2].text(), '{"reason":"stuck"}');
    assert.equal(sent[2].headers.get("idempotency-key"), "k1");
    assert.equal(await sent[3].text(), "{}");
  } finally {
    restore();
  }
});

/** Never called: `deno check` is the assertion. */
async function wrongCalls(api: Api): Promise<void> {
  // @ts-expect-error no such route
  await api.get("/tasks/{task}/stat", { params: { task: "t" } });
  // @ts-expect-error a path, not a pattern: the parameter goes in `params`
  await api.get("/tasks/send/stats");
  // @ts-expect-error the route's parameter is missing
  await api.get("/tasks/{task}/stats");
  // @ts-expect-error a parameter the pattern does not name
  await api.get("/tasks/{task}/stats", { params: { task: "t", job: "j" } });
  // @ts-expect-error a query the route does not take
  await api.get("/overview", { query: { task: "t" } });
  // @ts-expect-error a query of the wrong type
  await api.getPage("/tasks/{task}/jobs", { params: { task: "t" }, query: { state: "done" } });
  // @ts-expect-error a payload field that does not exist
  await api.get("/jobs/{jobId}/payloads/{field}", { params: { jobId: "j", field: "meta" } });
  // @ts-expect-error getPage on a route that is not one page of a list
  await api.getPage("/schedules");
  // @ts-expect-error get on a stream
  await api.get("/tasks/{task}/jobs/search", { params: { task: "t" } });
  // @ts-expect-error GET is not a mutation
  await api.send("GET", "/overview");
  // @ts-expect-error a body field the route does not take
  await api.send("POST", "/jobs/{jobId}/retry", { params: { jobId: "j" }, body: { data: 1 } });
  // @ts-expect-error the body the route requires is missing
  await api.send("POST", "/tasks/{task}/clean", { params: { task: "t" } });
  // @ts-expect-error a route that needs its parameters cannot be sent bare
  await api.send("POST", "/jobs/{jobId}/retry");
  // @ts-expect-error the answer is the route's: a job in full is not a bulk operation
  const _operation: BulkOperation = await api.get("/jobs/{jobId}", { params: { jobId: "j" } });
  const job: JobDetailResponse = await api.get("/jobs/{jobId}", { params: { jobId: "j" } });
  // @ts-expect-error the job's fields are the contract's
  job.name;
  const preview = await api.send("POST", "/tasks/{task}/clean", {
    params: { task: "t" },
    body: { state: "failed", olderThan: "1d", dryRun: true },
  });
  const _count: number = preview.count;
  const cleaned = await api.send("POST", "/tasks/{task}/clean", {
    params: { task: "t" },
    body: { state: "failed", olderThan: "1d" },
  });
  // @ts-expect-error without dryRun the answer is what was removed, not a count
  cleaned.count;
}

Deno.test("a 503 COUNTING rejects with when to ask again, from its Retry-After", async () => {
  const real = globalThis.fetch;
  globalThis.fetch = () =>
    Promise.resolve(
      Response.json({ error: "counting", code: "COUNTING" }, {
        status: 503,
        headers: { "retry-after": "2" },
      }),
    );
  try {
    const error = await createApi("/board/").get("/overview").catch((error) => error);
    assert.ok(error instanceof ApiError);
    assert.deepEqual([error.status, error.code, error.retryAfterMs], [503, "COUNTING", 2000]);
  } finally {
    globalThis.fetch = real;
  }
});

Deno.test("the wrong calls above fail deno check (they are never run)", () => {
  assert.equal(typeof wrongCalls, "function");
});
