/**
 * The evaluator's passes and its deliveries on fake timers, over the memory
 * source: a sink that does not answer holds up no evaluation, and what it
 * could not take is kept in the history as failed.
 */

import assert from "node:assert/strict";
import { parseAlertsConfig } from "../../src/alerts/config.ts";
import {
  type AlertNotice,
  type AlertsFile,
  MAX_GROUPED_ALERTS,
} from "../../src/contract/alerts.ts";
import type { DeadLetterGroup } from "../../src/contract/dlq.ts";
import type { TaskSource } from "../../src/source/types.ts";
import { startAlertEvaluator } from "../../src/alerts/runner.ts";
import { SINK_CONCURRENCY, SINK_QUEUE_SIZE } from "../../src/alerts/sink_queue.ts";
import { Leadership } from "../../src/leadership.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { taskFigures } from "../helpers/alert_snapshot.ts";
import { readFixture } from "../helpers/fixture.ts";
import { sourceWith, storeWith } from "../helpers/source_with.ts";
import { pairedStore } from "../../src/store/pairing.ts";
import type { BoardStore } from "../../src/store/types.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { namedLease } from "../helpers/named_lease.ts";
import { hangingReceiver, webhookReceiver } from "../helpers/webhook_receiver.ts";

const EVERY_MS = 5000;
const SECRET = "s".repeat(32);

/** An evaluator of `file` over `source`, leading alone, on `timers` (wall clock moved with them). */
function evaluatorOf(
  source: TaskSource,
  timers: FakeTimers,
  file: AlertsFile,
  store: BoardStore = pairedStore(source)!,
) {
  return startAlertEvaluator({
    source,
    store,
    config: parseAlertsConfig({ evaluateEvery: EVERY_MS, ...file }),
    leadership: new Leadership(null),
    timers,
    clock: () => 1_800_000_000_000 + timers.now(),
  });
}

/** The sink `ops` at `url`, and a rule telling it at once of send-email's 5 failed jobs. */
function mailFailingTo(url: string): AlertsFile {
  return {
    sinks: [{ name: "ops", type: "webhook", url, secret: SECRET }],
    rules: [{ name: "now", kind: "failed", tasks: ["send-email"], threshold: 4, sinks: ["ops"] }],
  };
}

Deno.test("a sink that does not answer holds up no evaluation; its notice is kept as failed", async () => {
  const silent = hangingReceiver();
  const fast = webhookReceiver();
  const source = createMemorySource({ seed: readFixture() });
  const timers = new FakeTimers();
  const evaluator = evaluatorOf(source, timers, {
    sinks: [
      {
        name: "silent",
        type: "webhook",
        url: silent.url,
        secret: SECRET,
        timeout: "1m",
        retries: 0,
      },
      { name: "fast", type: "webhook", url: fast.url, secret: SECRET },
    ],
    rules: [
      { name: "now", kind: "failed", tasks: ["send-email"], threshold: 4, sinks: ["silent"] },
      {
        name: "later",
        kind: "failed",
        tasks: ["send-email"],
        threshold: 4,
        for: EVERY_MS,
        sinks: ["fast"],
      },
    ],
  });
  try {
    await timers.tick(EVERY_MS);
    await waitFor(() => silent.state.reached === 1, {
      what: "the first notice at the silent sink",
    });
    await timers.tick(EVERY_MS);
    await waitFor(() => fast.received.length === 1, {
      what: "the second pass, while the silent sink still holds the first notice",
    });
    await timers.tick(60_000);
    await waitFor(async () => (await source.boardStore.listAlertHistory(10)).length === 2, {
      what: "both notices in the history",
    });
    const history = await source.boardStore.listAlertHistory(10);
    assert.deepEqual(
      history.map((entry) => [entry.notice.rule, entry.deliveries]).sort(),
      [
        ["later", [{ sink: "fast", outcome: "delivered", attempts: 1, error: null }]],
        ["now", [{
          sink: "silent",
          outcome: "failed",
          attempts: 1,
          error: "timed out after 60000 ms",
        }]],
      ],
    );
  } finally {
    await evaluator.close();
    await silent.close();
    await fast.close();
    await source.close();
  }
});

Deno.test("closing ends the deliveries in flight, each kept as failed", async () => {
  const silent = hangingReceiver();
  const source = createMemorySource({ seed: readFixture() });
  const timers = new FakeTimers();
  const evaluator = evaluatorOf(source, timers, {
    sinks: [{ name: "silent", type: "webhook", url: silent.url, secret: SECRET }],
    rules: [{ name: "now", kind: "failed", threshold: 4, sinks: ["silent"] }],
  });
  try {
    await timers.tick(EVERY_MS);
    await waitFor(() => silent.state.reached === 1, { what: "the notice at the silent sink" });
    await evaluator.close();
    const [entry] = await source.boardStore.listAlertHistory(10);
    assert.deepEqual(entry.deliveries, [
      { sink: "silent", outcome: "failed", attempts: 1, error: "the board closed" },
    ]);
  } finally {
    await silent.close();
    await source.close();
  }
});

Deno.test("when the store does not take the states, the next pass goes on from its own: no repeat", async () => {
  const hook = webhookReceiver();
  const memory = createMemorySource({ seed: readFixture() });
  // The memory source, but its alert states cannot be written (as when Redis refuses a write);
  // its snapshot reads are counted, one per pass.
  let passes = 0;
  const source = sourceWith(memory, {
    getQueueSnapshots: (tasks) => memory.getQueueSnapshots(tasks).finally(() => passes++),
  });
  const store = storeWith(memory.boardStore, {
    writeAlertStates: () => Promise.reject(new Error("store down")),
  });
  const timers = new FakeTimers();
  const evaluator = evaluatorOf(source, timers, mailFailingTo(hook.url), store);
  try {
    await timers.tick(EVERY_MS);
    await waitFor(() => hook.received.length === 1, { what: "the firing notice" });
    for (let pass = 2; pass <= 4; pass++) {
      await timers.tick(EVERY_MS);
      await waitFor(() => passes >= pass, { what: `pass ${pass}` });
    }
    await evaluator.close(); // the passes and every delivery they started are over
    assert.equal(hook.received.length, 1, "told once");
    assert.equal((await memory.boardStore.listAlertHistory(10)).length, 1);
  } finally {
    await evaluator.close();
    await hook.close();
    await memory.close();
  }
});

Deno.test("a stored rule whose read fails on a pass keeps its alert: no resolve, no second firing", async () => {
  const hook = webhookReceiver();
  const memory = createMemorySource({ seed: readFixture() });
  await memory.boardStore.saveAlertRule(
    parseAlertsConfig({
      sinks: [{ name: "ops", type: "webhook", url: hook.url, secret: SECRET }],
      rules: [{
        name: "stored",
        kind: "failed",
        tasks: ["send-email"],
        threshold: 4,
        sinks: ["ops"],
      }],
    }).rules[0],
    "create",
    200,
  );
  // The stored rules cannot be read after the first pass (as when Redis refuses that read).
  let rulesRead = 0;
  const store = storeWith(memory.boardStore, {
    listAlertRules: () =>
      ++rulesRead > 1
        ? Promise.reject(new Error("store down"))
        : memory.boardStore.listAlertRules(),
  });
  const timers = new FakeTimers();
  const evaluator = evaluatorOf(memory, timers, {
    sinks: [{ name: "ops", type: "webhook", url: hook.url, secret: SECRET }],
    rules: [],
  }, store);
  try {
    await timers.tick(EVERY_MS);
    await waitFor(() => hook.received.length === 1, { what: "the stored rule's firing notice" });
    for (let pass = 2; pass <= 3; pass++) {
      await timers.tick(EVERY_MS);
      await waitFor(() => rulesRead >= pass, { what: `pass ${pass}` });
    }
    await evaluator.close();
    assert.equal(hook.received.length, 1, "told once, never resolved");
    const states = await memory.boardStore.readAlertStates();
    assert.deepEqual(states.map((s) => [s.rule, s.phase]), [["stored", "firing"]]);
  } finally {
    await evaluator.close();
    await hook.close();
    await memory.close();
  }
});

Deno.test("a stored rule naming a sink no longer configured keeps its notice as failed, not dropped", async () => {
  const hook = webhookReceiver();
  const source = createMemorySource({ seed: readFixture() });
  // Stored while the board had a sink "pager"; the board now runs with "ops" only.
  const [rule] = parseAlertsConfig({
    sinks: [{ name: "pager", type: "webhook", url: hook.url, secret: SECRET }],
    rules: [{
      name: "stored",
      kind: "failed",
      tasks: ["send-email"],
      threshold: 4,
      sinks: ["pager"],
    }],
  }).rules;
  await source.boardStore.saveAlertRule(rule, "create", 200);
  const timers = new FakeTimers();
  const evaluator = evaluatorOf(source, timers, {
    sinks: [{ name: "ops", type: "webhook", url: hook.url, secret: SECRET }],
  });
  try {
    await timers.tick(EVERY_MS);
    await waitFor(async () => (await source.boardStore.listAlertHistory(10)).length === 1, {
      what: "the firing notice in the history",
    });
    const [entry] = await source.boardStore.listAlertHistory(10);
    assert.deepEqual(entry.deliveries, [
      {
        sink: "pager",
        outcome: "failed",
        attempts: 0,
        error: "no sink named pager in the alerts configuration",
      },
    ]);
    assert.equal(hook.received.length, 0);
  } finally {
    await evaluator.close();
    await hook.close();
    await source.close();
  }
});

Deno.test("a board that leads again carries on from the shapes the other leader kept: one that board told is not told again", async () => {
  const hook = webhookReceiver();
  const memory = createMemorySource({ seed: readFixture() });
  // The dead letters' error shapes, as the test sets them.
  let shapes: string[] = [];
  const source = sourceWith(memory, {
    // The evaluator reads a group's pattern alone.
    groupDeadLetters: () =>
      Promise.resolve(shapes.map((pattern) => ({ pattern }) as DeadLetterGroup)),
  });
  const { lease, handTo } = namedLease("this board");
  const timers = new FakeTimers();
  const config = parseAlertsConfig({
    evaluateEvery: EVERY_MS,
    sinks: [{ name: "ops", type: "webhook", url: hook.url, secret: SECRET }],
    rules: [{ name: "new errors", kind: "newErrorGroup", tasks: ["send-email"], sinks: ["ops"] }],
  });
  const boards = ["this board", "another board"].map((name) => {
    const leadership = new Leadership(lease, { timers, holder: name });
    const clock = () => 1_800_000_000_000 + timers.now();
    return {
      leadership,
      evaluator: startAlertEvaluator({
        source,
        store: memory.boardStore,
        config,
        leadership,
        timers,
        clock,
      }),
    };
  });
  const [self] = boards;
  const evaluated = async () => (await memory.boardStore.readAlertStatus()).asOf;
  const nextPass = async (what: string) => {
    const before = await evaluated();
    await waitFor(async () => (await timers.tick(EVERY_MS), await evaluated() !== before), {
      what,
    });
  };
  try {
    await nextPass("the first pass, as the leader: what it finds was there before");
    // Another board leads meanwhile: it sees "Mailbox full" appear, tells it, and keeps it.
    handTo("another board");
    await waitFor(async () => (await timers.tick(EVERY_MS), !self.leadership.isLeading), {
      what: "the lease gone to the other board",
    });
    shapes = ["Mailbox full"];
    await nextPass("the other board's pass");
    handTo("this board");
    await waitFor(async () => (await timers.tick(EVERY_MS), self.leadership.isLeading), {
      what: "the lease back",
    });
    await nextPass("a pass as the leader again");
    await Promise.all(boards.map((board) => board.evaluator.close())); // the notices are kept
    const told = await memory.boardStore.listAlertHistory(10);
    assert.deepEqual(told.map((entry) => entry.notice.state), ["firing"], "told once, not again");
  } finally {
    for (const board of boards) {
      await board.evaluator.close();
      await board.leadership.close();
    }
    await hook.close();
    await memory.close();
  }
});

Deno.test("an alert storm reaches a healthy sink whole, one notice per rule, while a hanging sink waits", async () => {
  const hanging = hangingReceiver();
  const healthy = webhookReceiver();
  const memory = createMemorySource({ seed: readFixture() });
  // 1,000 tasks, each with 5 failed jobs.
  const tasks = Array.from({ length: 1000 }, (_, i) => `task-${i}`);
  const failing = {
    stats: taskFigures({ failed: 5 }).stats,
    heads: taskFigures().heads,
    stalled: null,
  };
  const source = sourceWith(memory, {
    listTasks: () => Promise.resolve(tasks),
    getQueueSnapshots: (names) => Promise.resolve(new Map(names.map((name) => [name, failing]))),
  });
  const timers = new FakeTimers();
  // One rule on every task (1,000 alerts at once), and 120 more on a task each: more notices
  // than the hanging sink takes in, and every one of them for the healthy sink too.
  const sinks = ["hanging", "healthy"];
  const rules = [
    { name: "storm", kind: "failed" as const, threshold: 4, sinks },
    ...tasks.slice(0, 120).map((task) => ({
      name: `on ${task}`,
      kind: "failed" as const,
      tasks: [task],
      threshold: 4,
      sinks,
    })),
  ];
  const evaluator = evaluatorOf(source, timers, {
    sinks: [
      { name: "hanging", type: "webhook", url: hanging.url, secret: SECRET, timeout: "1m" },
      { name: "healthy", type: "webhook", url: healthy.url, secret: SECRET },
    ],
    rules,
  });
  const told = () => healthy.received.map(({ body }) => JSON.parse(body) as AlertNotice);
  try {
    await timers.tick(EVERY_MS);
    // What the sinks' queues could not take waits for the next pass.
    await waitFor(() => told().length === SINK_QUEUE_SIZE + SINK_CONCURRENCY, {
      what: "the first pass's notices the healthy sink's queue took",
    });
    await timers.tick(EVERY_MS);
    await waitFor(() => told().length === rules.length, {
      what: "every rule's notice at the healthy sink",
    });
    assert.deepEqual(told().map((notice) => notice.rule).sort(), rules.map((r) => r.name).sort());
    const storm = told().find((notice) => notice.rule === "storm")!;
    assert.deepEqual(
      [storm.state, storm.task, storm.count, storm.alerts!.length],
      ["firing", null, 1000, MAX_GROUPED_ALERTS],
    );
    assert.deepEqual(storm.alerts![0].task, "task-0");
    assert.match(storm.summary, /^storm: 1000 alerts firing: task-0, task-1, .* and 990 more$/);
    await waitFor(() => hanging.state.reached >= SINK_CONCURRENCY, {
      what: "the notices the hanging sink holds",
    });
    assert.equal(hanging.state.reached, SINK_CONCURRENCY, "the hanging sink holds its own only");
    assert.deepEqual(
      evaluator.queued(),
      new Map([["hanging", rules.length - SINK_CONCURRENCY], ["healthy", 0]]),
      "what the hanging sink has not taken waits for it, none dropped",
    );
  } finally {
    await evaluator.close();
    await hanging.close();
    await healthy.close();
    await memory.close();
  }
});

Deno.test("a pass whose states another leader wrote while it read tells nothing: that leader's pass stands", async () => {
  const hook = webhookReceiver();
  const memory = createMemorySource({ seed: readFixture() });
  let overtaken = false;
  const source = sourceWith(memory, {
    // While this pass reads, its lease runs out and the next leader writes its own pass.
    getQueueSnapshots: async (tasks) => {
      if (!overtaken) {
        overtaken = true;
        await memory.boardStore.writeAlertStates([], 1);
      }
      return await memory.getQueueSnapshots(tasks);
    },
  });
  const timers = new FakeTimers();
  const evaluator = evaluatorOf(source, timers, mailFailingTo(hook.url));
  try {
    await timers.tick(EVERY_MS);
    await evaluator.close(); // the pass and whatever it sent are over
    assert.equal(overtaken, true);
    assert.equal(hook.received.length, 0, "its twin notice is not sent");
    assert.deepEqual(await memory.boardStore.listAlertHistory(10), []);
    assert.deepEqual(await memory.boardStore.readAlertStatus(), { asOf: 1, states: [] });
  } finally {
    await evaluator.close();
    await hook.close();
    await memory.close();
  }
});

Deno.test("a leader whose store gives no known shapes takes what it finds as known, then tells what appears", async () => {
  const hook = webhookReceiver();
  const memory = createMemorySource({ seed: readFixture() });
  let shapes = ["Mailbox full"];
  const source = sourceWith(memory, {
    groupDeadLetters: () =>
      Promise.resolve(shapes.map((pattern) => ({ pattern }) as DeadLetterGroup)),
  });
  const store = storeWith(memory.boardStore, {
    readKnownShapes: () => Promise.reject(new Error("store down")),
  });
  const timers = new FakeTimers();
  const evaluator = evaluatorOf(source, timers, {
    sinks: [{ name: "ops", type: "webhook", url: hook.url, secret: SECRET }],
    rules: [{ name: "new errors", kind: "newErrorGroup", tasks: ["send-email"], sinks: ["ops"] }],
  }, store);
  const evaluated = async () => (await memory.boardStore.readAlertStatus()).asOf;
  try {
    await waitFor(async () => (await timers.tick(EVERY_MS), await evaluated() !== null), {
      what: "the first pass: a fresh baseline",
    });
    shapes = ["Mailbox full", "Disk full"];
    const before = await evaluated();
    await waitFor(async () => (await timers.tick(EVERY_MS), await evaluated() !== before), {
      what: "a pass that sees the new shape",
    });
    // Its notice is sent beside the pass: closing before it arrives would end its delivery.
    await waitFor(() => hook.received.length > 0, { what: "the notice at the sink" });
    await evaluator.close();
    const told = await memory.boardStore.listAlertHistory(10);
    assert.deepEqual(told.map(({ notice }) => [notice.rule, notice.state]), [[
      "new errors",
      "firing",
    ]]);
    assert.equal(hook.received.length, 1, "Disk full only: Mailbox full was there before");
  } finally {
    await evaluator.close();
    await hook.close();
    await memory.close();
  }
});

Deno.test("a states write Redis applied without confirming it is this board's own: the next pass writes on", async () => {
  const hook = webhookReceiver();
  const memory = createMemorySource({ seed: readFixture() });
  let writes = 0;
  const store = storeWith(memory.boardStore, {
    // The first write lands, but its answer is lost (a reply past the command timeout).
    writeAlertStates: async (states, asOf, ifAsOf) => {
      const written = await memory.boardStore.writeAlertStates(states, asOf, ifAsOf);
      if (++writes === 1) throw new Error("Redis did not confirm the change");
      return written;
    },
  });
  const timers = new FakeTimers();
  const evaluator = evaluatorOf(memory, timers, mailFailingTo(hook.url), store);
  try {
    await timers.tick(EVERY_MS);
    await waitFor(() => hook.received.length === 1, { what: "the firing notice" });
    await timers.tick(EVERY_MS);
    await waitFor(() => writes >= 2, { what: "the second pass's write" });
    await evaluator.close(); // the second pass is over
    const { asOf } = await memory.boardStore.readAlertStatus();
    assert.equal(asOf, 1_800_000_000_000 + 2 * EVERY_MS, "the second pass's states are kept");
    assert.equal(hook.received.length, 1, "told once");
  } finally {
    await evaluator.close();
    await hook.close();
    await memory.close();
  }
});
