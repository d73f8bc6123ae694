/**
 * Rules and silences set through the API (`alerts.update`): stored rules
 * are checked as the file's are, code rules are read-only, every change is
 * audited and refused cross-site, and the leader evaluates what was stored
 * on another board, obeying the silences.
 */

import assert from "node:assert/strict";
import type { AlertRuleView, AlertsFile, AlertSilence } from "../../src/contract/alerts.ts";
import type { BoardOptions } from "../../src/options.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import type { TaskSource } from "../../src/source/types.ts";
import { alertPass } from "../helpers/alert_pass.ts";
import { auditEntries } from "../helpers/audit.ts";
import { createBoardOn } from "../helpers/checked_board.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { readFixture } from "../helpers/fixture.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { webhookReceiver } from "../helpers/webhook_receiver.ts";

const SECRET = "a-webhook-secret-of-32-characters";

function alertsTo(url: string, rules: AlertsFile["rules"] = []): AlertsFile {
  return {
    evaluateEvery: "10s",
    sinks: [{ name: "ops", type: "webhook", url, secret: SECRET }],
    rules,
  };
}

const CODE_RULE = {
  name: "huge backlog",
  kind: "backlog" as const,
  threshold: 1e6,
  sinks: ["ops"],
};
const MAIL_RULE = { name: "mail failing", kind: "failed", tasks: ["send-email"], threshold: 4 };

function boardOn(source: TaskSource, options: BoardOptions, timers = new FakeTimers()) {
  const board = createBoardOn(timers, source, options);
  const call = async (method: string, path: string, body?: unknown, headers = {}) => {
    const response = await board.fetch(
      new Request(`http://board.test/board/api${path}`, {
        method,
        headers: { origin: "http://board.test", "content-type": "application/json", ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    return { status: response.status, body: await response.json() };
  };
  return { board, call, timers, close: () => board.close() };
}

Deno.test("a rule is stored, listed as stored, replaced and removed; each change audited", async () => {
  const source = createMemorySource({ seed: readFixture() });
  const { board, call, close } = boardOn(source, {
    alerts: alertsTo("http://127.0.0.1:9/hook", [CODE_RULE]),
  });
  try {
    const created = await call("POST", "/alerts/rules", { ...MAIL_RULE, sinks: ["ops"] });
    assert.equal(created.status, 201);
    const view: AlertRuleView = created.body;
    assert.deepEqual(
      [view.name, view.origin, view.state, view.threshold, view.unit, view.alerts],
      ["mail failing", "stored", "notEvaluated", 4, "count", []],
    );
    const listed = (await call("GET", "/alerts")).body.rules as AlertRuleView[];
    assert.deepEqual(listed.map((r) => [r.name, r.origin]), [
      ["huge backlog", "code"],
      ["mail failing", "stored"],
    ]);
    const replaced = await call("PUT", "/alerts/rules/mail%20failing", {
      ...MAIL_RULE,
      threshold: 9,
      for: "1m",
      sinks: ["ops"],
    });
    assert.deepEqual([replaced.status, replaced.body.threshold, replaced.body.forMs], [
      200,
      9,
      60_000,
    ]);
    const removed = await call("DELETE", "/alerts/rules/mail%20failing");
    assert.deepEqual([removed.status, removed.body], [200, { removed: true }]);
    assert.deepEqual(await source.boardStore.listAlertRules(), []);
    const trail = await auditEntries(board, "?action=alerts.update");
    assert.deepEqual(trail.map((e) => [e.action, e.target, e.outcome]).reverse(), [
      ["alerts.update", "mail failing", "ok"],
      ["alerts.update", "mail failing", "ok"],
      ["alerts.update", "mail failing", "ok"],
    ]);
  } finally {
    await close();
    await source.close();
  }
});

Deno.test("a rule is refused naming the field; a code rule is read-only (409)", async () => {
  const source = createMemorySource({ seed: readFixture() });
  const { call, close } = boardOn(source, {
    alerts: alertsTo("http://127.0.0.1:9/hook", [CODE_RULE]),
  });
  try {
    const refusal = async (method: string, path: string, body?: unknown) => {
      const { status, body: error } = await call(method, path, body);
      return [status, error.code, error.param];
    };
    assert.deepEqual(await refusal("POST", "/alerts/rules", { ...MAIL_RULE, sinks: ["pager"] }), [
      400,
      "INVALID_PARAM",
      "sinks[0]",
    ]);
    // A sink named twice would post every notice twice.
    assert.deepEqual(
      await refusal("POST", "/alerts/rules", { ...MAIL_RULE, sinks: ["ops", "ops"] }),
      [400, "INVALID_PARAM", "sinks[1]"],
    );
    assert.deepEqual(
      await refusal("POST", "/alerts/rules", { ...MAIL_RULE, threshold: -1, sinks: ["ops"] }),
      [400, "INVALID_PARAM", "threshold"],
    );
    assert.deepEqual(
      await refusal("POST", "/alerts/rules", { ...MAIL_RULE, colour: "red", sinks: ["ops"] }),
      [400, "INVALID_PARAM", "colour"],
    );
    assert.deepEqual(await refusal("POST", "/alerts/rules", CODE_RULE), [
      409,
      "CONFLICT",
      undefined,
    ]);
    assert.deepEqual(await refusal("PUT", "/alerts/rules/huge%20backlog", CODE_RULE), [
      409,
      "CONFLICT",
      undefined,
    ]);
    assert.deepEqual(await refusal("DELETE", "/alerts/rules/huge%20backlog"), [
      409,
      "CONFLICT",
      undefined,
    ]);
    assert.deepEqual(
      await refusal("PUT", "/alerts/rules/other", { ...MAIL_RULE, sinks: ["ops"] }),
      [400, "INVALID_PARAM", "name"],
    );
    assert.deepEqual(
      await refusal("PUT", "/alerts/rules/mail%20failing", { ...MAIL_RULE, sinks: ["ops"] }),
      [404, "NOT_FOUND", undefined],
    );
    assert.equal(
      (await call("POST", "/alerts/rules", { ...MAIL_RULE, sinks: ["ops"] })).status,
      201,
    );
    assert.deepEqual(await refusal("POST", "/alerts/rules", { ...MAIL_RULE, sinks: ["ops"] }), [
      409,
      "CONFLICT",
      undefined,
    ]);
    assert.deepEqual(
      await source.boardStore.listAlertRules().then((r) => r.map((x) => x.threshold)),
      [4],
    );
  } finally {
    await close();
    await source.close();
  }
});

Deno.test("without the alerts option every alert change is 409 CONFLICT naming the option", async () => {
  const source = createMemorySource({ seed: readFixture() });
  const { call, close } = boardOn(source, {});
  try {
    for (
      const [method, path, body] of [
        ["POST", "/alerts/rules", { ...MAIL_RULE, sinks: ["ops"] }],
        ["DELETE", "/alerts/rules/x", undefined],
        ["POST", "/alerts/silences", { scope: "all", duration: "1h", reason: "deploy" }],
        ["DELETE", "/alerts/silences/x", undefined],
      ] as const
    ) {
      const { status, body: error } = await call(method, path, body);
      assert.deepEqual([status, error.code], [409, "CONFLICT"], `${method} ${path}`);
      assert.match(error.error, /alerts. option or .--alerts FILE/);
    }
  } finally {
    await close();
    await source.close();
  }
});

Deno.test("a change from another site is refused before anything is stored", async () => {
  const source = createMemorySource({ seed: readFixture() });
  const { call, close } = boardOn(source, { alerts: alertsTo("http://127.0.0.1:9/hook") });
  try {
    const { status, body } = await call(
      "POST",
      "/alerts/silences",
      { scope: "all", duration: "1h", reason: "x" },
      { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
    );
    assert.deepEqual([status, body.code], [403, "CROSS_ORIGIN"]);
    assert.deepEqual(await source.boardStore.listAlertSilences(), []);
  } finally {
    await close();
    await source.close();
  }
});

Deno.test("a silence is set with its author and reason, listed, refused when bad, ended", async () => {
  const source = createMemorySource({ seed: readFixture() });
  const timers = new FakeTimers();
  const { call, close } = boardOn(source, {
    alerts: alertsTo("http://127.0.0.1:9/hook", [CODE_RULE]),
    auth: () => undefined,
    identify: () => ({ name: "ada", role: "operator" }),
  }, timers);
  try {
    const made = await call("POST", "/alerts/silences", {
      scope: { rule: "huge backlog" },
      duration: "2h",
      reason: "migrating",
    });
    assert.equal(made.status, 201);
    const silence: AlertSilence = made.body;
    assert.deepEqual([
      silence.author,
      silence.reason,
      silence.scope,
      silence.until - silence.createdAt,
    ], [
      "ada",
      "migrating",
      { rule: "huge backlog" },
      7_200_000,
    ]);
    assert.deepEqual((await call("GET", "/alerts")).body.silences, [silence]);
    const refusal = async (body: unknown) => {
      const { status, body: error } = await call("POST", "/alerts/silences", body);
      return [status, error.param];
    };
    assert.deepEqual(await refusal({ scope: { rule: "nope" }, duration: "1h", reason: "x" }), [
      400,
      "scope.rule",
    ]);
    assert.deepEqual(await refusal({ scope: "all", duration: "40d", reason: "x" }), [
      400,
      "duration",
    ]);
    assert.deepEqual(await refusal({ scope: "all", reason: "x" }), [400, "until"]);
    assert.deepEqual(await refusal({ scope: "all", until: 1, reason: "x" }), [400, "until"]);
    assert.deepEqual(await refusal({ scope: "all", duration: "1h", reason: " " }), [400, "reason"]);
    assert.deepEqual(await refusal({ scope: "some", duration: "1h", reason: "x" }), [400, "scope"]);
    const ended = await call("DELETE", `/alerts/silences/${silence.id}`);
    assert.deepEqual([ended.status, ended.body], [200, { removed: true }]);
    assert.equal((await call("DELETE", `/alerts/silences/${silence.id}`)).status, 404);
    assert.deepEqual((await call("GET", "/alerts")).body.silences, []);
  } finally {
    await close();
    await source.close();
  }
});

Deno.test("a rule stored on one board is evaluated by the leader; a silence set there mutes it", async () => {
  const hook = webhookReceiver();
  const source = createMemorySource({ seed: readFixture() });
  const timers = new FakeTimers();
  const leader = boardOn(source, { alerts: alertsTo(hook.url) }, timers);
  const follower = boardOn(source, { alerts: alertsTo(hook.url) }, timers);
  try {
    // The first board made holds the lease; the rule and the silence are made on the other.
    const muted = await follower.call("POST", "/alerts/silences", {
      scope: { task: "send-email" },
      duration: "1m",
      reason: "known",
    });
    assert.equal(muted.status, 201);
    assert.equal(
      (await follower.call("POST", "/alerts/rules", { ...MAIL_RULE, sinks: ["ops"] })).status,
      201,
    );
    const history = async () => await source.boardStore.listAlertHistory(10);
    const pass = () =>
      alertPass(timers, 10_000, async () => (await follower.call("GET", "/alerts")).body.asOf);
    await waitFor(async () => (await pass(), (await history()).length > 0), {
      what: "the muted notice in the history",
    });
    assert.deepEqual((await history()).map((e) => [e.notice.rule, e.silencedBy]), [
      ["mail failing", muted.body.id],
    ]);
    assert.equal(hook.received.length, 0, "muted: nothing sent");
    const overview = (await follower.call("GET", "/alerts")).body;
    assert.deepEqual(overview.rules[0].alerts.map((a: { muted: boolean }) => a.muted), [true]);
    // Once the silence ends, the firing alert is told.
    await waitFor(async () => (await pass(), hook.received.length > 0), {
      what: "the notice after the silence",
    });
    assert.equal(JSON.parse(hook.received[0].body).rule, "mail failing");
  } finally {
    await follower.close();
    await leader.close();
    await source.close();
    await hook.close();
  }
});

Deno.test("a stored rule naming a sink the alerts file no longer has is marked, and its notice kept as failed there", async () => {
  const hook = webhookReceiver();
  const source = createMemorySource({ seed: readFixture() });
  const pager = { name: "pager", type: "webhook" as const, url: hook.url, secret: SECRET };
  const before = boardOn(source, {
    alerts: { ...alertsTo(hook.url), sinks: [...alertsTo(hook.url).sinks!, pager] },
  });
  const stored = await before.call("POST", "/alerts/rules", {
    ...MAIL_RULE,
    sinks: ["ops", "pager"],
  });
  assert.equal(stored.status, 201);
  assert.deepEqual(stored.body.unknownSinks, []);
  await before.close();
  // The file changed since: "pager" is gone.
  const after = boardOn(source, { alerts: alertsTo(hook.url) });
  try {
    const rule = (await after.call("GET", "/alerts")).body.rules[0];
    assert.deepEqual([rule.name, rule.sinks, rule.unknownSinks], [
      "mail failing",
      ["ops", "pager"],
      ["pager"],
    ]);
    const pass = () =>
      alertPass(after.timers, 10_000, async () => (await after.call("GET", "/alerts")).body.asOf);
    const [entry] = await waitFor(async () => {
      await pass();
      const entries = await source.boardStore.listAlertHistory(10);
      return entries.length > 0 && entries;
    }, { what: "the notice in the history" });
    assert.equal(entry.notice.rule, "mail failing");
    assert.deepEqual(entry.deliveries.map((d) => [d.sink, d.outcome, d.attempts, d.error]), [
      ["ops", "delivered", 1, null],
      ["pager", "failed", 0, "no sink named pager in the alerts configuration"],
    ]);
    assert.equal(hook.received.length, 1, "told once: at ops");
  } finally {
    await after.close();
    await source.close();
    await hook.close();
  }
});

Deno.test("a stored rule removed while it fires is told resolved, as removed, and is gone from the page", async () => {
  const hook = webhookReceiver();
  const source = createMemorySource({ seed: readFixture() });
  const board = boardOn(source, { alerts: alertsTo(hook.url) });
  try {
    assert.equal(
      (await board.call("POST", "/alerts/rules", { ...MAIL_RULE, sinks: ["ops"] })).status,
      201,
    );
    const pass = () =>
      alertPass(board.timers, 10_000, async () => (await board.call("GET", "/alerts")).body.asOf);
    const told = () => hook.received.map((request) => JSON.parse(request.body));
    await waitFor(async () => (await pass(), told().length === 1), { what: "the firing notice" });
    const removal = await board.call(
      "DELETE",
      `/alerts/rules/${encodeURIComponent("mail failing")}`,
    );
    assert.equal(removal.status, 200);
    // One pass tells it; with no rule and no alert left, no later pass writes. The clock moves on
    // while the notice is sent: a failed first post waits out its backoff on it.
    await pass();
    await waitFor(async () => (await board.timers.tick(1000), told().length === 2), {
      what: "the resolve notice",
    });
    const [firing, resolved] = told();
    assert.deepEqual([resolved.state, resolved.key, resolved.rule], [
      "resolved",
      firing.key,
      "mail failing",
    ]);
    assert.match(resolved.summary, /the rule was removed/);
    // No state is left to tell again, nor for the page to show.
    assert.deepEqual(await source.boardStore.readAlertStates(), []);
    assert.deepEqual((await board.call("GET", "/alerts")).body.rules, []);
  } finally {
    await board.close();
    await source.close();
    await hook.close();
  }
});
