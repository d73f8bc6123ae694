/**
 * Who may do what: every route that changes something and every read of
 * payloads, for each preset (`viewer`, `operator`, `admin` from the user's
 * `role`), a custom `can` (sync and async), and the hook form with
 * `identify`. A refusal is 403 `FORBIDDEN` naming the action, before the
 * source is touched, and it is audited.
 */

import assert from "node:assert/strict";
import { createBoard } from "../helpers/checked_board.ts";
import { readFixture } from "../helpers/fixture.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import { ACTIONS } from "../../src/contract/actions.ts";
import type { BoardOptions, BoardUser } from "../../src/options.ts";
import { waitFor } from "../helpers/wait_for.ts";

const dump = readFixture();
const FAILED = "7deea1e0-af8c-4c24-bb84-c89069ee4b0a";
const SAME_ORIGIN = { origin: "http://board.test", "sec-fetch-site": "same-origin" };

/** The reads that need a permission, and the action each needs. */
const GUARDED_READS: readonly { path: string; action: string }[] = [
  { path: "/audit", action: "audit.read" },
  { path: "/jobs/{jobId}/payloads/{field}", action: "payload.read" },
  { path: "/jobs/{jobId}/logs", action: "payload.read" },
  { path: "/jobs/{jobId}/logs/{index}/meta", action: "payload.read" },
  { path: "/tasks/{task}/jobs/export", action: "export" },
  { path: "/dlq/export", action: "export" },
  { path: "/tasks/{task}/jobs/search", action: "search" },
  { path: "/jobs?prefix=c0ffee", action: "search" },
  { path: "/tasks/{task}/jobs/search/export", action: "export" },
];

/** What each preset may do, as docs/auth.md states it. */
function presetAllows(role: string, action: string, target: string): boolean {
  if (role === "admin") return true;
  if (action === "sessions.revoke") return target === "mine";
  if (role === "viewer") return ["search", "history.read", "metrics.read"].includes(action);
  return action !== "audit.read";
}

const PARAMETERS: Record<string, string> = {
  task: "send-email",
  jobId: FAILED,
  field: "data",
  index: "0",
  name: "nightly",
  id: "op-1",
};

function concrete(path: string): string {
  return path.replaceAll(/{(\w+)}/g, (_, name: string) => PARAMETERS[name] ?? "x");
}

/** A board whose hook names the user from the `x-user` header: `name:role`. */
function boardWith(options: BoardOptions = {}) {
  const source = createMemorySource({ seed: dump });
  const board = createBoard(source, {
    auth: (request) => {
      const [name, role] = (request.headers.get("x-user") ?? "").split(":");
      return name ? { name, role } : undefined;
    },
    ...options,
  });
  const call = (method: string, path: string, user: string, body?: unknown) =>
    Promise.resolve(board.fetch(
      new Request(`http://board.test/board/api${path}`, {
        method,
        headers: { ...SAME_ORIGIN, "content-type": "application/json", "x-user": user },
        body: method === "GET" ? undefined : JSON.stringify(body ?? {}),
      }),
    ));
  return { board, call, source, close: () => source.close() };
}

/** The routes that change something, from the API's own document (`x-audit`). */
async function mutatingRoutes(
  call: ReturnType<typeof boardWith>["call"],
): Promise<{ method: string; path: string; action: string; target: string }[]> {
  const document = await (await call("GET", "/openapi.json", "root:admin")).json();
  const routes = [];
  for (
    const [path, methods] of Object.entries<Record<string, Record<string, unknown>>>(document.paths)
  ) {
    for (const [method, route] of Object.entries(methods)) {
      const audit = route["x-audit"] as
        | { action: string; target?: string; task?: string }
        | undefined;
      if (!audit) continue;
      const declared = audit.target ?? audit.task;
      const target = declared === undefined
        ? "*"
        : /^{\w+}$/.test(declared)
        ? PARAMETERS[declared.slice(1, -1)]
        : declared;
      routes.push({ method: method.toUpperCase(), path, action: audit.action, target });
    }
  }
  return routes;
}

async function isForbidden(response: Response, action: string): Promise<boolean> {
  if (response.status !== 403) {
    await response.body?.cancel();
    return false;
  }
  const body = await response.json();
  if (body.code !== "FORBIDDEN") return false;
  assert.equal(body.param, action, "the refusal names the action");
  return true;
}

/** Whether `user`'s retry of the failed job is refused as `job.retry`. */
async function retryRefused(call: ReturnType<typeof boardWith>["call"], user: string) {
  return await isForbidden(await call("POST", `/jobs/${FAILED}/retry`, user), "job.retry");
}

for (const role of ["viewer", "operator", "admin"]) {
  Deno.test(`the ${role} preset: every mutation and every guarded read, allowed or 403 FORBIDDEN`, async () => {
    const { call, close } = boardWith();
    try {
      const mutations = await mutatingRoutes(call);
      assert.ok(mutations.length >= 17, `every mutation route (${mutations.length})`);
      const routes = [
        ...mutations,
        ...GUARDED_READS.map((read) => ({ method: "GET", ...read, target: "" })),
      ];
      for (const { method, path, action, target } of routes) {
        const forbidden = await isForbidden(
          await call(method, concrete(path), `${role}1:${role}`),
          action,
        );
        assert.equal(
          forbidden,
          !presetAllows(role, action, target),
          `${role} ${method} ${path} (${action} on ${target})`,
        );
      }
    } finally {
      await close();
    }
  });
}

/**
 * Whether each read that carries payloads inside a wider answer carries them
 * for `user`: a job's data, a workflow's result, a schedule's data, a bulk
 * dry run filtered by data (refused without; `payload_read_test.ts` checks
 * that the refusal names payload.read). The event stream's frames are
 * in `payload_read_test.ts`.
 */
async function payloadRoads(call: ReturnType<typeof boardWith>["call"], user: string) {
  const job = await (await call("GET", `/jobs/${FAILED}`, user)).json();
  const workflow = await (await call("GET", `/workflows/${WORKFLOW}`, user)).json();
  const schedules: { name: string; config: { data?: unknown } }[] =
    await (await call("GET", "/schedules", user)).json();
  const dryRun = await call("POST", "/bulk", user, {
    action: "retry",
    dryRun: true,
    selector: { task: "send-email", state: "failed", filter: { field: "data", contains: "a" } },
  });
  // Refused as payload.read, or (a viewer) as bulk.start before: no count either way.
  assert.ok(dryRun.status === 200 || dryRun.status === 403, `dry run ${dryRun.status}`);
  await dryRun.body?.cancel();
  return {
    job: job.data !== null,
    workflow: workflow.result !== null,
    schedule: schedules.find((schedule) => schedule.name === "nightly-report")!.config.data !==
      undefined,
    bulkFilter: dryRun.status === 200,
  };
}

const WORKFLOW = "05031e79-13f6-4dca-94e8-957133427217";

for (const role of ["viewer", "operator", "admin"]) {
  Deno.test(`the ${role} preset: every road a payload leaves by carries it only with payload.read`, async () => {
    const { call, close } = boardWith();
    try {
      const allowed = presetAllows(role, "payload.read", FAILED);
      assert.deepEqual(await payloadRoads(call, `${role}1:${role}`), {
        job: allowed,
        workflow: allowed,
        schedule: allowed,
        bulkFilter: allowed,
      });
    } finally {
      await close();
    }
  });
}

Deno.test("payload roads under a custom can and under identify follow payload.read", async () => {
  const custom = boardWith({
    can: (user: BoardUser | null, action: string) =>
      action !== "payload.read" || user?.name === "ann",
  });
  const identified = boardWith({
    auth: () => undefined,
    identify: (request: Request) => ({ name: "ivy", role: request.headers.get("x-user") }),
  });
  const none = { job: false, workflow: false, schedule: false, bulkFilter: false };
  const all = { job: true, workflow: true, schedule: true, bulkFilter: true };
  try {
    assert.deepEqual(await payloadRoads(custom.call, "ann:viewer"), all);
    assert.deepEqual(await payloadRoads(custom.call, "bob:admin"), none);
    assert.deepEqual(await payloadRoads(identified.call, "viewer"), none);
    assert.deepEqual(await payloadRoads(identified.call, "operator"), all);
  } finally {
    await custom.close();
    await identified.close();
  }
});

Deno.test("a refused mutation changes nothing and is recorded in the audit trail", async () => {
  const { call, close } = boardWith();
  try {
    const refused = await call("POST", `/jobs/${FAILED}/retry`, "vic:viewer");
    assert.equal(refused.status, 403);
    assert.deepEqual(await refused.json(), {
      error: "vic may not job.retry on " + FAILED,
      code: "FORBIDDEN",
      param: "job.retry",
    });
    const job = await (await call("GET", `/jobs/${FAILED}`, "vic:viewer")).json();
    assert.equal(job.state, "failed", "the job was not retried");
    let entries: { user: string; action: string; code: string | null; target: string }[] = [];
    for (let attempt = 0; attempt < 100 && entries.length === 0; attempt++) {
      const trail = await (await call("GET", "/audit", "root:admin")).json();
      entries = trail.entries.filter((entry: { code: string | null }) =>
        entry.code === "FORBIDDEN"
      );
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    assert.equal(entries.length, 1);
    assert.equal(entries[0].user, "vic");
    assert.equal(entries[0].action, "job.retry");
    assert.equal(entries[0].target, FAILED);
  } finally {
    await close();
  }
});

Deno.test("a user without a known role is a viewer; so is a request the hook names nobody for", async () => {
  const { call, close } = boardWith();
  try {
    assert.ok(await retryRefused(call, "nobody:"));
    assert.ok(await retryRefused(call, "x:root"));
    assert.ok(await retryRefused(call, ""), "deny by default: the hook let it in, as nobody");
  } finally {
    await close();
  }
});

Deno.test("an identify that names nobody (no header, a blank one) gets the least role", async () => {
  // The hook checks a bearer token; identify reads who it is from another header.
  const { board, close } = boardWith({
    auth: (request: Request) =>
      request.headers.get("authorization") === "Bearer viewer-token"
        ? undefined
        : new Response(null, { status: 401 }),
    identify: (request: Request) => {
      const name = request.headers.get("x-identity")?.trim();
      return name ? { name, role: "operator" } : null;
    },
  });
  try {
    for (const identity of [undefined, "", "   "]) {
      const what = `x-identity: ${JSON.stringify(identity)}`;
      const fetchAs = (path: string, method = "GET") =>
        Promise.resolve(board.fetch(
          new Request(`http://board.test/board/api${path}`, {
            method,
            headers: {
              ...SAME_ORIGIN,
              "content-type": "application/json",
              authorization: "Bearer viewer-token",
              ...(identity === undefined ? {} : { "x-identity": identity }),
            },
            body: method === "GET" ? undefined : "{}",
          }),
        ));
      assert.ok(await isForbidden(await fetchAs("/audit"), "audit.read"), what);
      const data = await fetchAs(`/jobs/${FAILED}/payloads/data`);
      assert.ok(await isForbidden(data, "payload.read"), what);
      const retry = await fetchAs(`/jobs/${FAILED}/retry`, "POST");
      assert.ok(await isForbidden(retry, "job.retry"), what);
      const config = await (await fetchAs("/config")).json();
      assert.deepEqual(
        config.allowed,
        ["sessions.revoke", "search", "history.read", "metrics.read"],
        what,
      );
    }
  } finally {
    await close();
  }
});

Deno.test("a custom can (sync) decides by user, action and target", async () => {
  const asked: [string, string, string][] = [];
  const { call, close } = boardWith({
    can: (user: BoardUser | null, action: string, target: string) => {
      asked.push([String(user?.name), action, target]);
      return !(action === "job.retry" && target === FAILED);
    },
  });
  try {
    assert.ok(await retryRefused(call, "ann:viewer"));
    const clean = await call("POST", "/tasks/send-email/clean", "ann:viewer", {
      state: "completed",
      olderThan: "1h",
    });
    assert.equal(clean.status, 200, "can decides, not the preset");
    assert.deepEqual(asked, [
      ["ann", "job.retry", FAILED],
      ["ann", "task.clean", "send-email"],
    ]);
  } finally {
    await close();
  }
});

Deno.test("a can that denies one task is asked with that task by every route acting on its jobs", async () => {
  const asked: [string, string][] = [];
  const { call, source, close } = boardWith({
    can: (_user: BoardUser | null, action: string, target: string) => {
      asked.push([action, target]);
      return target !== "send-email";
    },
  });
  const refused = async (method: string, path: string, action: string, body?: unknown) =>
    await isForbidden(await call(method, path, "ann:operator", body), action);
  try {
    const failed = { action: "retry", selector: { task: "send-email", state: "failed" } };
    assert.ok(await refused("POST", "/bulk", "bulk.start", failed), "the selector's task");
    assert.ok(await refused("POST", "/bulk", "bulk.start", { ...failed, dryRun: true }));
    assert.ok(
      await refused("POST", "/dlq/retry-all?task=send-email", "dlq.retry-all"),
      "the query's task",
    );
    assert.ok(await refused("POST", `/jobs/${FAILED}/retry`, "job.retry"), "the job's task");
    assert.ok(await refused("POST", `/dlq/${FAILED}/retry`, "dlq.retry"));
    assert.ok(await refused("GET", `/jobs/${FAILED}/payloads/data`, "payload.read"));
    assert.ok(await refused("GET", `/jobs/${FAILED}/logs`, "payload.read"));
    assert.ok(await refused("GET", `/jobs/${FAILED}/logs/0/meta`, "payload.read"));
    const job = await (await call("GET", `/jobs/${FAILED}`, "ann:operator")).json();
    assert.equal(job.data, null, "the job's page shows no data of a denied task");
    assert.deepEqual(job.logs, []);
    assert.equal((await source.getJob(FAILED))?.state, "failed", "nothing was retried");
    const other = await call("POST", "/bulk", "ann:operator", {
      action: "retry",
      dryRun: true,
      selector: { task: "render", state: "failed" },
    });
    assert.equal(other.status, 200, "another task's bulk action is asked with that task");
    await other.body?.cancel();
    assert.ok(asked.some(([action, target]) => action === "bulk.start" && target === "render"));
  } finally {
    await close();
  }
});

Deno.test("a custom can (async) is awaited", async () => {
  const { call, close } = boardWith({
    can: async (_user: BoardUser | null, action: string) => {
      await Promise.resolve();
      return action !== "export";
    },
  });
  try {
    assert.ok(await isForbidden(await call("GET", "/dlq/export", "ann:admin"), "export"));
    assert.equal((await call("POST", `/jobs/${FAILED}/retry`, "ann:viewer")).status, 200);
  } finally {
    await close();
  }
});

Deno.test("the hook form with identify: the user identify returns decides", async () => {
  const { call, close } = boardWith({
    auth: () => undefined,
    identify: (request: Request) => ({ name: "ivy", role: request.headers.get("x-user") }),
  });
  try {
    assert.ok(await retryRefused(call, "viewer"));
    assert.equal((await call("POST", `/jobs/${FAILED}/retry`, "operator")).status, 200);
  } finally {
    await close();
  }
});

Deno.test("without auth everything is allowed, and readOnly wins over any role", async () => {
  const open = createMemorySource({ seed: dump });
  const board = createBoard(open);
  const retry = await board.fetch(
    new Request(`http://board.test/board/api/jobs/${FAILED}/retry`, {
      method: "POST",
      headers: { ...SAME_ORIGIN, "content-type": "application/json" },
      body: "{}",
    }),
  );
  assert.equal(retry.status, 200);
  await open.close();
  const { call, close } = boardWith({ readOnly: true });
  try {
    const refused = await call("POST", `/jobs/${FAILED}/retry`, "root:admin");
    assert.equal((await refused.json()).code, "READ_ONLY");
  } finally {
    await close();
  }
});

Deno.test("bad can and identify options throw naming them", () => {
  const source = createMemorySource();
  assert.throws(() => createBoard(source, { can: 1 as never }), /can/);
  assert.throws(
    () => createBoard(source, { identify: "x" as never, auth: () => undefined }),
    /identify/,
  );
  assert.throws(() => createBoard(source, { identify: () => undefined }), /identify/);
});

/** What `GET /config` says `user` may do. */
async function allowedFor(call: ReturnType<typeof boardWith>["call"], user: string) {
  return (await (await call("GET", "/config", user)).json()).allowed;
}

Deno.test("GET /config lists what the current user may do, per preset", async () => {
  const { call, close } = boardWith();
  try {
    assert.deepEqual(await allowedFor(call, "vic:viewer"), [
      "sessions.revoke",
      "search",
      "history.read",
      "metrics.read",
    ]);
    const operator = await allowedFor(call, "oz:operator");
    assert.ok(operator.includes("job.retry") && operator.includes("payload.read"));
    assert.ok(!operator.includes("audit.read"), "the trail is an admin's");
    const admin = await allowedFor(call, "root:admin");
    assert.deepEqual(admin, [...operator.slice(0, -1), "audit.read", "metrics.read"]);
    assert.equal(admin.length, ACTIONS.length, "every action of the catalogue");
  } finally {
    await close();
  }
});

Deno.test("GET /config: a custom can is asked with target *; readOnly leaves only reads", async () => {
  const asked = new Set<string>();
  const custom = boardWith({
    can: (_user: BoardUser | null, action: string, target: string) => {
      asked.add(target);
      return action === "export";
    },
  });
  try {
    assert.deepEqual(await allowedFor(custom.call, "ann:viewer"), ["export"]);
    assert.deepEqual([...asked], ["*", "mine"], "mine for sessions.revoke, * for the rest");
  } finally {
    await custom.close();
  }
  const readOnly = boardWith({ readOnly: true });
  try {
    assert.deepEqual(await allowedFor(readOnly.call, "root:admin"), [
      "sessions.revoke",
      "payload.read",
      "export",
      "search",
      "history.read",
      "audit.read",
      "metrics.read",
    ]);
  } finally {
    await readOnly.close();
  }
});

Deno.test("a viewer sees a job's state, timings and error, but not its data, result or logs", async () => {
  const { call, close } = boardWith();
  try {
    const operator = await (await call("GET", `/jobs/${FAILED}`, "oz:operator")).json();
    assert.notEqual(operator.data, null, "the fixture's job has data");
    assert.ok("data" in operator.payloads);
    const viewer = await (await call("GET", `/jobs/${FAILED}`, "vic:viewer")).json();
    assert.equal(viewer.state, "failed");
    assert.equal(viewer.error, operator.error);
    assert.deepEqual(viewer.timestamps, operator.timestamps);
    assert.equal(viewer.data, null);
    assert.equal(viewer.result, null);
    assert.deepEqual(viewer.logs, []);
    assert.equal(viewer.logCount, 0, "no count of what is withheld");
    assert.ok(!("data" in viewer.payloads) && !("result" in viewer.payloads), "no size of them");
    assert.deepEqual(viewer.payloads.error, operator.payloads.error);
  } finally {
    await close();
  }
});

/** `user`'s search of the failed send-email jobs whose `field` contains an "a". */
function searchAs(call: ReturnType<typeof boardWith>["call"], field: string, user: string) {
  return call("GET", `/tasks/send-email/jobs/search?state=failed&field=${field}&contains=a`, user);
}

Deno.test("search by data, result or logs needs payload.read; by error it does not", async () => {
  const { call, close } = boardWith();
  try {
    const byData = await searchAs(call, "data", "vic:viewer");
    assert.ok(await isForbidden(byData, "payload.read"), "an oracle on the data");
    const byError = await searchAs(call, "error", "vic:viewer");
    assert.equal(byError.status, 200);
    await byError.body?.cancel();
    const operator = await searchAs(call, "data", "oz:operator");
    assert.equal(operator.status, 200);
    await operator.body?.cancel();
  } finally {
    await close();
  }
});

Deno.test("fair scans: one user holds at most half the slots, and readers never the last", async () => {
  const memory = createMemorySource({ seed: dump });
  let open!: () => void;
  const gate = new Promise<void>((resolve) => open = resolve);
  let entered = 0;
  let onEnter = () => {};
  const source = new Proxy(memory, {
    get(target, property) {
      const value = Reflect.get(target, property);
      if (property !== "searchJobs") {
        return typeof value === "function" ? value.bind(target) : value;
      }
      return async (...args: Parameters<NonNullable<typeof memory.searchJobs>>) => {
        entered++;
        onEnter();
        await gate;
        return await memory.searchJobs!(...args);
      };
    },
  });
  const board = createBoard(source, {
    auth: (request) => {
      const [name, role] = (request.headers.get("x-user") ?? "").split(":");
      return { name, role };
    },
  });
  const search = (user: string) =>
    Promise.resolve(board.fetch(
      new Request("http://board.test/board/api/tasks/send-email/jobs/search?state=failed", {
        headers: { "x-user": user },
      }),
    ));
  /** Starts a search that holds its slot until the gate opens. */
  const holding = async (user: string) => {
    const before = entered;
    const reached = new Promise<void>((resolve) => onEnter = resolve);
    const response = search(user);
    await reached;
    assert.equal(entered, before + 1);
    // In an object: an async function returning the promise would wait for it.
    return { response };
  };
  const refusal = async (user: string) => {
    const response = await search(user);
    assert.equal(response.status, 409, `${user} is refused`);
    return (await response.json()).error as string;
  };
  try {
    const held = [await holding("vic:viewer"), await holding("vic:viewer")];
    assert.match(await refusal("vic:viewer"), /vic holds 2 of the 4/);
    held.push(await holding("ann:viewer"));
    assert.match(await refusal("cy:viewer"), /kept for a user who may act/);
    held.push(await holding("oz:operator"));
    open();
    for (const response of await Promise.all(held.map((search) => search.response))) {
      assert.equal(response.status, 200);
      await response.body?.cancel();
    }
  } finally {
    open();
    await memory.close();
  }
});

Deno.test("GET /metrics asks can for metrics.read", async () => {
  const source = createMemorySource();
  const board = createBoard(source, {
    auth: (request) => ({ name: request.headers.get("x-user") ?? "" }),
    can: (user: BoardUser | null, action: string) =>
      action !== "metrics.read" || user?.name === "prometheus",
  });
  try {
    const scrape = (user: string) =>
      Promise.resolve(board.fetch(
        new Request("http://board.test/board/metrics", { headers: { "x-user": user } }),
      ));
    const refused = await scrape("vic");
    assert.equal(refused.status, 403);
    assert.equal((await refused.json()).param, "metrics.read");
    const allowed = await scrape("prometheus");
    assert.equal(allowed.status, 200);
    await allowed.body?.cancel();
  } finally {
    await source.close();
  }
});

Deno.test("GET /metrics refusals are audited like the API's: by can, by the hook, without a session", async () => {
  const source = createMemorySource();
  const hooked = createBoard(source, {
    auth: (request) => {
      const name = request.headers.get("x-user") ?? "";
      return name === "mallory"
        ? new Response("go away", { status: 403 })
        : { name, role: "admin" };
    },
    can: (user: BoardUser | null, action: string) =>
      action !== "metrics.read" || user?.name !== "vic",
  });
  const login = createBoard(source, {
    auth: { authenticate: () => null, cookiePassword: "a-cookie-password-of-32-characters!!" },
    metrics: { token: "the-scrapers-token" },
  });
  const scrape = (board: typeof hooked, headers: Record<string, string>) =>
    Promise.resolve(board.fetch(new Request("http://board.test/board/metrics", { headers })));
  try {
    for (
      const [board, headers, status] of [
        [hooked, { "x-user": "vic" }, 403],
        [hooked, { "x-user": "mallory" }, 403],
        [login, { authorization: "Bearer a-wrong-token" }, 401],
        [login, {}, 401],
      ] as const
    ) {
      const refused = await scrape(board, headers);
      assert.equal(refused.status, status);
      await refused.body?.cancel();
    }
    const entries = await waitFor(async () => {
      const response = await hooked.fetch(
        new Request("http://board.test/board/api/audit?outcome=error", {
          headers: { ...SAME_ORIGIN, "x-user": "root" },
        }),
      );
      const trail: { user: string; action: string; target: string; code: string }[] =
        (await response.json()).entries;
      return trail.length >= 4 && trail;
    }, { what: "the four /metrics refusals in the trail" });
    assert.deepEqual(
      entries.map((entry) => [entry.user, entry.action, entry.target, entry.code].join(" ")).sort(),
      [
        "anonymous metrics.read * AUTH_HOOK",
        "anonymous metrics.read * UNAUTHORIZED",
        "anonymous metrics.read * UNAUTHORIZED",
        "vic metrics.read * FORBIDDEN",
      ],
    );
  } finally {
    await hooked.close();
    await login.close();
    await source.close();
  }
});
