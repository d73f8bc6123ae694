/**
 * "Why is this job waiting?" with a real taskora App on a throwaway Redis:
 * each hold is made by taskora's own mechanism (a per-key concurrency
 * limit, a singleton, a debounce, a dedup, a collect buffer, a retry
 * backoff, a dispatch delay, a long queue, no worker at all), and
 * `GET /jobs/{id}/diagnosis` names it with its evidence.
 */

// deno-lint-ignore-file no-explicit-any
import assert from "node:assert/strict";
import { ShiftedClock } from "../helpers/shifted_clock.ts";
import { withClient } from "../helpers/redis_server.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { type AppWorld, createTaskora, redisAdapter, waitForState, withApp } from "./harness.ts";

/** The task `name` of the App. */
function taskOf(world: AppWorld, name: string): any {
  return [...world.app.getRegisteredTasks()].find((task: any) => task.name === name);
}

async function diagnosis(world: AppWorld, id: string): Promise<any> {
  const { status, body } = await world.get(`/jobs/${id}/diagnosis`);
  assert.equal(status, 200, JSON.stringify(body));
  return body;
}

/** The reason of `code` in the job's diagnosis, once it is there. */
function reasonOf(world: AppWorld, id: string, code: string): Promise<any> {
  return waitFor(async () => {
    const body = await diagnosis(world, id);
    return body.reasons.find((reason: any) => reason.code === code);
  }, { what: `a ${code} reason for ${id}` });
}

/** Tasks whose handlers run until released (and, once released, end at once). */
function holding() {
  const releases: (() => void)[] = [];
  let released = false;
  const handler = () =>
    new Promise<string>((resolve) =>
      released ? resolve("done") : releases.push(() => resolve("done"))
    );
  return {
    handler,
    release: () => {
      released = true;
      releases.splice(0).forEach((release) => release());
    },
  };
}

Deno.test("a concurrency key at its limit: 1 of 1, used by the running job; the limit is read from the job, with a URL only", async () => {
  const hold = holding();
  await withApp(
    "redis",
    (app) => app.task("perkey", { concurrency: 3, handler: hold.handler }),
    async (world) => {
      try {
        const task = taskOf(world, "perkey");
        const options = { concurrencyKey: "acct-1", concurrencyLimit: 1 };
        const ids = await Promise.all([1, 2, 3].map((n) => task.dispatch({ n }, options)));
        const running = await waitFor(async () => {
          const states = await Promise.all(
            ids.map(async (id) => (await diagnosis(world, id)).state),
          );
          return states.filter((s) => s === "active").length === 1
            ? ids[states.indexOf("active")]
            : undefined;
        }, { what: "one job of the key to run" });
        const held = ids.find((id) => id !== running)!;
        const reason = await reasonOf(world, held, "concurrencyKey");
        assert.equal(
          reason.summary,
          `its concurrency key is at its limit: 1 of 1, used by ${running}`,
        );
        assert.deepEqual(reason.evidence, {
          key: "acct-1",
          inUse: 1,
          limit: 1,
          holders: [running],
        });
        assert.equal(reason.link, `/jobs/${running}`);
        const body = await diagnosis(world, held);
        assert.equal(body.state, "waiting");
        assert.match(body.unknown[0], /createBoard\(app\)/, "the board has a URL only");
        assert.ok(!body.reasons.some((r: any) => r.code === "noWorker"), "a worker takes jobs");
      } finally {
        hold.release();
      }
    },
    { boardOn: "url" },
  );
});

Deno.test("a singleton task: the waiting job names the running one (the App tells the board)", async () => {
  const hold = holding();
  await withApp(
    "redis",
    (app) => app.task("solo", { singleton: true, handler: hold.handler }),
    async (world) => {
      try {
        const task = taskOf(world, "solo");
        const first = await task.dispatch({});
        await waitForState(world, first, "active");
        const second = await task.dispatch({});
        const reason = await reasonOf(world, second, "singleton");
        assert.equal(
          reason.summary,
          `solo is a singleton and job ${first} runs: no other job starts until it ends`,
        );
        assert.deepEqual(reason.evidence, { running: [first] });
        assert.deepEqual((await diagnosis(world, second)).unknown, [], "the App declares it");
      } finally {
        hold.release();
      }
    },
  );
});

/** Two dispatches of `typing` on one debounce key of 10 minutes: the second replaces the first. */
async function debounced(world: AppWorld): Promise<[first: string, second: string]> {
  const task = taskOf(world, "typing");
  const debounce = { key: "doc-9", delay: "10m" };
  const first = await task.dispatch({ v: 1 }, { debounce });
  return [first, await task.dispatch({ v: 2 }, { debounce })];
}

const typing = (app: any) => app.task("typing", { handler: () => "saved" });

Deno.test("a debounce: the job that replaced an earlier one says so, and when it runs", async () => {
  await withApp("redis", typing, async (world) => {
    const [first, second] = await debounced(world);
    assert.equal((await world.get(`/jobs/${first}`)).status, 404, "taskora deleted the first");
    const body = await diagnosis(world, second);
    assert.equal(body.state, "delayed");
    const reason = body.reasons.find((r: any) => r.code === "debounce");
    assert.ok(reason, JSON.stringify(body.reasons));
    assert.equal(reason.evidence.replaced, first);
    assert.ok(
      reason.evidence.runAt > body.readAt + 9 * 60_000,
      `runs in ~10 min: ${reason.evidence.runAt}`,
    );
    assert.match(reason.summary, /^a debounce replaced job .* with it: it runs in 9 min, unless/);
  });
});

Deno.test("a debounce is found with the App's clock ahead of Redis's: the stream entry's time is Redis's, the job's ts the App's", async () => {
  await withApp("redis", typing, async (world) => {
    const [first, second] = await debounced(world);
    // As written by an App whose clock runs 300 ms ahead of the Redis server's.
    await withClient(world.url, (redis) => redis.hIncrBy(`taskora:{typing}:${second}`, "ts", 300));
    const body = await diagnosis(world, second);
    const reason = body.reasons.find((r: any) => r.code === "debounce");
    assert.equal(reason?.evidence.replaced, first, JSON.stringify(body.reasons));
  });
});

Deno.test("a dedup: the job holding the key says so; the duplicate dispatch left no job", async () => {
  const hold = holding();
  await withApp("redis", (app) => app.task("sync", { handler: hold.handler }), async (world) => {
    try {
      const task = taskOf(world, "sync");
      const kept = task.dispatch({ order: 7 }, { deduplicate: { key: "order-7" } });
      const keptId = await kept;
      const duplicate = task.dispatch({ order: 7 }, { deduplicate: { key: "order-7" } });
      const duplicateId = await duplicate;
      assert.equal(duplicate.existingId, keptId, "taskora's dedup hit");
      assert.equal((await world.get(`/jobs/${duplicateId}/diagnosis`)).status, 404);
      const reason = await reasonOf(world, keptId, "dedup");
      assert.deepEqual(reason.evidence, { key: "order-7" });
    } finally {
      hold.release();
    }
  });
});

Deno.test("a dedup key taken over by a later job: only the job the key now names holds it", async () => {
  await withApp("redis", (app) => app.task("mirror", { handler: () => "ok" }), async (world) => {
    const task = taskOf(world, "mirror");
    // Dedup only while delayed: the waiting first job no longer blocks, so
    // taskora deletes the key and gives it to the second dispatch.
    const deduplicate = { key: "row-9", while: ["delayed"] };
    const first = await task.dispatch({ row: 9 }, { deduplicate });
    const second = task.dispatch({ row: 9 }, { deduplicate });
    const secondId = await second;
    assert.equal(second.enqueued, true, "taskora created a second job");
    const held = await diagnosis(world, secondId);
    assert.deepEqual(held.reasons.find((r: any) => r.code === "dedup")?.evidence, {
      key: "row-9",
    });
    const released = await diagnosis(world, first);
    assert.deepEqual(
      released.reasons.map((r: any) => r.code),
      ["noWorker", "queue"],
      "the first job's hash still names the key, which no longer names it",
    );
  }, { start: false });
});

Deno.test("a concurrency key without a limit holds nothing: taskora checks the key only when its limit is above 0", async () => {
  await withApp("redis", (app) => app.task("unbound", { handler: () => "ok" }), async (world) => {
    const task = taskOf(world, "unbound");
    const id = await task.dispatch({}, { concurrencyKey: "acct-2", concurrencyLimit: 0 });
    const body = await diagnosis(world, id);
    assert.deepEqual(body.reasons.map((r: any) => r.code), ["noWorker", "queue"]);
  }, { start: false });
});

Deno.test("a collect buffer: the flush job says how many items wait and when it flushes", async () => {
  await withApp(
    "redis",
    (app) =>
      app.task("batch", {
        collect: { key: "inbox", delay: "10m", maxSize: 100 },
        handler: () => "ok",
      }),
    async (world) => {
      const task = taskOf(world, "batch");
      let flush = "";
      for (const n of [1, 2, 3]) flush = await task.dispatch({ n });
      const body = await diagnosis(world, flush);
      assert.equal(body.state, "delayed");
      const reason = body.reasons.find((r: any) => r.code === "collect");
      assert.ok(reason, JSON.stringify(body.reasons));
      assert.equal(reason.evidence.key, "inbox");
      assert.equal(reason.evidence.items, 3);
      assert.match(
        reason.summary,
        /^it is the flush of a collect buffer of 3 items, flushing in 9 min$/,
      );
      assert.ok(!body.reasons.some((r: any) => r.code === "dispatchDelay"), "not a plain delay");
    },
  );
});

Deno.test("no worker running: the job's task has had none taken while jobs wait; the queue says how many are ahead", async () => {
  await withApp("redis", (app) => app.task("idle", { handler: () => "ok" }), async (world) => {
    const task = taskOf(world, "idle");
    const ids: string[] = [];
    for (let n = 0; n < 5; n++) ids.push(await task.dispatch({ n }));
    const body = await diagnosis(world, ids[2]);
    assert.deepEqual(body.reasons.map((r: any) => r.code), ["noWorker", "queue"]);
    const [noWorker, queue] = body.reasons;
    assert.equal(
      noWorker.summary,
      "no worker took a job of idle in the newest 5 events of its stream, while 5 jobs wait",
    );
    assert.equal(noWorker.evidence.lastTakenAt, null);
    assert.equal(queue.evidence.ahead, 2, "two were dispatched before it");
    assert.equal(
      queue.summary,
      "2 jobs ahead of it: none of its jobs completed in the last 10 minutes",
    );
    assert.equal((await diagnosis(world, ids[0])).reasons[1].evidence.ahead, 0);
  }, { start: false });
});

Deno.test("a retry backoff: a failed attempt's job waits for its next attempt", async () => {
  await withApp(
    "redis",
    (app) =>
      app.task("flaky", {
        retry: { attempts: 3, backoff: "fixed", delay: 600_000, jitter: false },
        handler: () => {
          throw new Error("service down");
        },
      }),
    async (world) => {
      const id = await taskOf(world, "flaky").dispatch({});
      await waitForState(world, id, "retrying");
      const reason = await reasonOf(world, id, "retryBackoff");
      assert.equal(reason.evidence.attempt, 2);
      assert.equal(reason.evidence.maxAttempts, 3);
      assert.match(
        reason.summary,
        /^attempt 1 of 3 failed: attempt 2 runs in 9 min \(retry backoff\)$/,
      );
      assert.equal(reason.link, `/jobs/${id}#attempts`);
    },
  );
});

Deno.test("a dispatch delay: the job runs when its delay ends", async () => {
  await withApp("redis", (app) => app.task("later", { handler: () => "ok" }), async (world) => {
    const id = await taskOf(world, "later").dispatch({}, { delay: 600_000 });
    const body = await diagnosis(world, id);
    assert.equal(body.state, "delayed");
    const [reason] = body.reasons;
    assert.equal(reason.code, "dispatchDelay");
    assert.equal(reason.evidence.delayMs, 600_000);
    assert.match(reason.summary, /^it was dispatched with a delay of 10 min: it runs in 9 min$/);
  });
});

Deno.test("a finished job has no reasons; an unknown id is 404 JOB_NOT_FOUND", async () => {
  await withApp(
    "redis",
    (app) => app.task("double", { handler: (d: any) => d.n * 2 }),
    async (world) => {
      const id = await taskOf(world, "double").dispatch({ n: 2 });
      await waitForState(world, id, "completed");
      const body = await diagnosis(world, id);
      assert.deepEqual([body.state, body.reasons], ["completed", []]);
      const missing = await world.get("/jobs/no-such-job/diagnosis");
      assert.deepEqual([missing.status, missing.body.code], [404, "JOB_NOT_FOUND"]);
    },
  );
});

Deno.test("the job's keys are shown only to users who may read its payloads", async () => {
  const hold = holding();
  const auth = (request: Request) => {
    const [name, role] = (request.headers.get("x-user") ?? "").split(":");
    return name ? { name, role } : undefined;
  };
  await withApp("redis", (app) => app.task("sync", { handler: hold.handler }), async (world) => {
    try {
      const id = await taskOf(world, "sync").dispatch({}, {
        deduplicate: { key: "ada@example.com" },
      });
      const as = async (user: string) => {
        const { status, body } = await world.send(`/jobs/${id}/diagnosis`, undefined, {
          method: "GET",
          headers: { "x-user": user },
        });
        assert.equal(status, 200, JSON.stringify(body));
        return body.reasons.find((reason: any) => reason.code === "dedup");
      };
      assert.deepEqual((await as("oz:operator")).evidence, { key: "ada@example.com" });
      const hidden = await as("vic:viewer");
      assert.deepEqual(hidden.evidence, { key: "[hidden: needs payload.read]" });
    } finally {
      hold.release();
    }
  }, { board: { auth } });
});

Deno.test("a throttle holds no job: taskora refuses the dispatch over the max, so there is nothing to diagnose", async () => {
  await withApp("redis", (app) => app.task("ping", { handler: () => "pong" }), async (world) => {
    const task = taskOf(world, "ping");
    const throttle = { key: "host-1", max: 1, window: "10m" };
    const accepted = task.dispatch({}, { throttle, delay: 600_000 });
    const acceptedId = await accepted;
    const refused = task.dispatch({}, { throttle, delay: 600_000 });
    const refusedId = await refused;
    assert.deepEqual([accepted.enqueued, refused.enqueued], [true, false], "taskora's throttle");
    assert.equal((await world.get(`/jobs/${refusedId}/diagnosis`)).status, 404);
    const body = await diagnosis(world, acceptedId);
    assert.deepEqual(body.reasons.map((r: any) => r.code), ["dispatchDelay"]);
  });
});

Deno.test("a job below its task's since: a worker fails it unrun (the App declares since)", async () => {
  await withApp(
    "redis",
    (app) => app.task("versioned", { version: 3, since: 2, handler: () => "ok" }),
    async (world) => {
      const id = await taskOf(world, "versioned").dispatch({}, { delay: 600_000 });
      await withClient(world.url, (redis) => redis.hSet(`taskora:{versioned}:${id}`, "_v", "1"));
      const body = await diagnosis(world, id);
      const reason = body.reasons.find((r: any) => r.code === "versionBelowSince");
      assert.deepEqual(reason.evidence, { version: 1, since: 2 });
      assert.deepEqual(body.unknown, []);
    },
  );
});

Deno.test("a job newer than the App's task: its workers put it back unrun (taskora nacks a job above its version)", async () => {
  await withApp("redis", (app) => app.task("rolled", { handler: () => "ok" }), async (world) => {
    // A newer deployment (version 2) dispatches on the same Redis; the board's App is version 1.
    const newer = createTaskora({ adapter: redisAdapter(world.url) });
    newer.task("rolled", { version: 2, handler: () => "ok" });
    let id: string;
    try {
      id = String(
        await taskOf({ app: newer } as AppWorld, "rolled").dispatch({}, { delay: 600_000 }),
      );
    } finally {
      await newer.close();
    }
    const body = await diagnosis(world, id);
    const reason = body.reasons.find((r: any) => r.code === "versionAboveTask");
    assert.ok(reason, JSON.stringify(body.reasons));
    assert.deepEqual(reason.evidence, { version: 2, taskVersion: 1 });
    assert.equal(
      reason.summary,
      "its version 2 is above the task's version in this App (1): a worker of that version " +
        "puts it back without running it; only a worker of version 2 or later runs it",
    );
  });
});

Deno.test("taskora's migration lock comes first while a migrator holds it", async () => {
  await withApp("redis", (app) => app.task("later", { handler: () => "ok" }), async (world) => {
    const id = await taskOf(world, "later").dispatch({}, { delay: 600_000 });
    const lock = {
      by: "taskora-wire-7",
      reason: "wireVersion-6-to-7",
      startedAt: Date.now(),
      targetWireVersion: 7,
    };
    await withClient(
      world.url,
      (redis) => redis.set("taskora:migration:lock", JSON.stringify(lock), { PX: 60_000 }),
    );
    const reason = await reasonOf(world, id, "migrationLock");
    assert.equal(reason.evidence.by, "taskora-wire-7");
    assert.equal((await diagnosis(world, id)).reasons[0].code, "migrationLock");
  }, { boardOn: "url" });
});

Deno.test("busy workers are not missing ones: a worker running a long job while two wait is 'busy', not noWorker, in the diagnosis and the overview", async () => {
  const hold = holding();
  const timers = new ShiftedClock();
  await withApp(
    "redis",
    (app) => app.task("render", { concurrency: 1, timeout: "1h", handler: hold.handler }),
    async (world) => {
      try {
        const task = taskOf(world, "render");
        const [running, ...queued] = [
          await task.dispatch({ n: 1 }),
          await task.dispatch({ n: 2 }),
          await task.dispatch({ n: 3 }),
        ];
        await waitForState(world, running, "active");
        // The board's clock 6 min on (over health.maxIdleMs): the worker still runs the job
        // and renews its lock, so nothing was taken since.
        timers.ahead(6.5 * 60_000);
        const body = await diagnosis(world, queued[1]);
        assert.deepEqual(body.reasons.map((r: any) => r.code), ["workersBusy", "queue"]);
        const [busy] = body.reasons;
        assert.match(
          busy.summary,
          /^every worker of render is busy: 1 job runs under a live lock, and none was taken for 6 min while 2 jobs wait$/,
        );
        assert.equal(busy.evidence.running, 1);
        const { body: overview } = await world.get("/overview");
        const health = overview.tasks.find((t: any) => t.name === "render").health;
        assert.equal(health.noProgress, false, JSON.stringify(health));
        assert.equal(health.status, "warning");
        assert.match(
          health.reason,
          /^2 waiting, none taken for 6 min \(over 5 min\): workers are busy, 1 job running under a live lock \(or a singleton or concurrency key holds the rest\)$/,
        );
      } finally {
        hold.release();
      }
    },
    { timers },
  );
});

Deno.test("a due delayed job with no worker waits for one: taskora promotes due jobs only in a worker's dequeue, so the diagnosis and the overview say no worker takes it", async () => {
  const timers = new ShiftedClock();
  await withApp("redis", (app) => app.task("remind", { handler: () => "ok" }), async (world) => {
    const id = await taskOf(world, "remind").dispatch({}, { delay: 60_000 });
    // The board's clock 8 min on: the job has been due for 7 min, and no worker runs.
    timers.ahead(8 * 60_000);
    const body = await diagnosis(world, id);
    assert.equal(body.state, "delayed", "nothing promoted it");
    assert.deepEqual(body.reasons.map((r: any) => r.code), ["noWorker", "dispatchDelay"]);
    assert.match(body.reasons[0].summary, /while it has been due for 7 min$/);
    assert.match(
      body.reasons[1].summary,
      /: it runs once a worker asks for a job \(due 7 min ago: taskora promotes due jobs only then\)$/,
    );
    const { body: overview } = await world.get("/overview");
    const health = overview.tasks.find((t: any) => t.name === "remind").health;
    assert.equal(health.noProgress, true, JSON.stringify(health));
    assert.equal(health.status, "critical");
    assert.match(health.reason, /^job \w{8} due 7 min ago, none taken for/);
  }, { start: false, timers });
});

Deno.test("the oldest waiting job is found where taskora put it back: a job its concurrency key blocked goes to the wait list's head", async () => {
  const hold = holding();
  await withApp(
    "redis",
    (app) => app.task("export", { concurrency: 2, timeout: "1h", handler: hold.handler }),
    async (world) => {
      try {
        const task = taskOf(world, "export");
        const keyed = { concurrencyKey: "acct-1", concurrencyLimit: 1 };
        const first = await task.dispatch({ n: 1 }, keyed);
        const blocked = await task.dispatch({ n: 2 }, keyed);
        const others = [];
        for (const n of [3, 4, 5]) others.push(await task.dispatch({ n }));
        await world.app.start();
        // The worker takes the first, finds the second's key full and pushes it back to the
        // head, then takes the third: two run, the blocked one waits longest.
        await waitForState(world, first, "active");
        await waitForState(world, others[0], "active");
        const { body } = await world.get("/overview");
        const row = body.tasks.find((t: any) => t.name === "export");
        assert.equal(row.stats.waiting, 3);
        assert.equal(row.latency.oldestWaiting.id, blocked, JSON.stringify(row.latency));
      } finally {
        hold.release();
      }
    },
    { start: false },
  );
});

Deno.test("a TTL that ends first: a waiting job past its expireAt, and a delayed one whose TTL ends before it is due, will be expired, never run", async () => {
  const timers = new ShiftedClock();
  await withApp(
    "redis",
    (app) => app.task("quote", { ttl: { max: "1m" }, handler: () => "ok" }),
    async (world) => {
      const task = taskOf(world, "quote");
      const waiting = await task.dispatch({});
      const delayed = await task.dispatch({}, { delay: 600_000 });
      const expiresOf = async (id: string) =>
        (await diagnosis(world, id)).reasons.find((r: any) => r.code === "expires");
      const ahead = await expiresOf(delayed);
      assert.match(
        ahead?.summary ?? "",
        /^its TTL ends in \d+ s, before it is due in 9 min: it will be expired when promoted, never run$/,
      );
      assert.ok(ahead.evidence.expireAt < ahead.evidence.runAt);
      timers.ahead(2 * 60_000);
      const past = await expiresOf(waiting);
      assert.match(past?.summary ?? "", /^its TTL ended 1 min ago: it will be expired, never run/);
    },
    { start: false, timers },
  );
});

Deno.test("an active job with a cancel asked for: it ends cancelled, and the diagnosis says so while its worker's onCancel runs", async () => {
  const hold = holding();
  const cleanup = holding();
  await withApp(
    "redis",
    (app) =>
      app.task("upload", { timeout: "1h", handler: hold.handler, onCancel: cleanup.handler }),
    async (world) => {
      try {
        const id = await taskOf(world, "upload").dispatch({});
        await waitForState(world, id, "active");
        const asked = await world.send(`/jobs/${id}/cancel`, { reason: "wrong file" });
        assert.equal(asked.status, 200, JSON.stringify(asked.body));
        const reason = await reasonOf(world, id, "cancelRequested");
        assert.match(
          reason.summary,
          /^a cancel was asked for \d+ m?s ago \("wrong file"\): it ends cancelled/,
        );
        assert.equal(reason.evidence.reason, "wrong file");
        assert.equal((await diagnosis(world, id)).state, "active", "its onCancel still runs");
      } finally {
        cleanup.release();
        hold.release();
      }
    },
  );
});
