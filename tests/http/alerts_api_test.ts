/**
 * `GET /api/alerts` and `GET /api/alerts/history`: every rule with its
 * state, the sinks by name only, and the notices with their outcome. Every
 * answer is checked against the route's OpenAPI schema (checked_board.ts).
 */

import assert from "node:assert/strict";
import type { AlertsFile, AlertsOverview } from "../../src/contract/alerts.ts";
import type { AlertsFramePayload } from "../../src/contract/events.ts";
import { dataOf, isEvent, openStream } from "../events/sse_client.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import { alertPass } from "../helpers/alert_pass.ts";
import { createBoardOn } from "../helpers/checked_board.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { readFixture } from "../helpers/fixture.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { webhookReceiver } from "../helpers/webhook_receiver.ts";

const SECRET = "a-webhook-secret-of-32-characters";

function alertsTo(url: string): AlertsFile {
  return {
    evaluateEvery: "10s",
    sinks: [{ name: "ops", type: "webhook", url, secret: SECRET }],
    rules: [
      { name: "mail failing", kind: "failed", tasks: ["send-email"], threshold: 4, sinks: ["ops"] },
      { name: "huge backlog", kind: "backlog", threshold: 1_000_000, sinks: ["ops"] },
    ],
  };
}

/** Calls `board`'s API as a same-site browser would, answering the JSON. */
function callerOf(board: { fetch: (request: Request) => Response | Promise<Response> }) {
  return async (method: string, path: string, body?: unknown) =>
    await (await board.fetch(
      new Request(`http://board.test/board/api${path}`, {
        method,
        headers: { origin: "http://board.test", "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    )).json();
}

Deno.test("GET /alerts lists every rule with its state, the sinks by name, after a pass", async () => {
  const hook = webhookReceiver();
  const timers = new FakeTimers();
  const source = createMemorySource({ seed: readFixture() });
  const board = createBoardOn(timers, source, { alerts: alertsTo(hook.url) });
  const get = async (path: string) =>
    await (await board.fetch(new Request(`http://board.test/board/api${path}`))).json();
  try {
    const before: AlertsOverview = await get("/alerts");
    assert.equal(before.asOf, null, "no evaluation yet");
    assert.deepEqual(before.rules.map((r) => [r.name, r.origin, r.state]), [
      ["mail failing", "code", "notEvaluated"],
      ["huge backlog", "code", "notEvaluated"],
    ], "a rule never evaluated is not said to be ok");
    await waitFor(async () => (await timers.tick(10_000), hook.received.length > 0), {
      what: "the firing notice",
    });
    const overview: AlertsOverview = await get("/alerts");
    assert.equal(overview.enabled, true);
    assert.equal(overview.evaluateEveryMs, 10_000);
    assert.equal(typeof overview.asOf, "number");
    assert.equal(overview.firing, 1);
    assert.deepEqual(overview.sinks, [{ name: "ops", type: "webhook" }], "no url, no secret");
    assert.ok(!JSON.stringify(overview).includes(SECRET));
    assert.ok(!JSON.stringify(overview).includes(hook.url));
    const [mail, backlog] = overview.rules;
    assert.deepEqual(
      [
        mail.state,
        mail.unit,
        mail.threshold,
        mail.tasks,
        mail.firingSince === mail.alerts[0].firingSince && mail.firingSince! <= overview.asOf!,
      ],
      ["firing", "count", 4, ["send-email"], true],
    );
    assert.deepEqual(
      mail.alerts.map((a) => [a.subject, a.phase, a.figure, a.muted]),
      [["send-email", "firing", 5, false]],
    );
    assert.deepEqual([backlog.state, backlog.firingSince, backlog.tasks], ["ok", null, null]);

    const { entries } = await waitFor(async () => {
      const history = await get("/alerts/history?limit=5");
      return history.entries.length > 0 && history;
    }, { what: "the notice in the history" });
    assert.deepEqual(
      entries.map((e: { notice: { rule: string }; deliveries: { outcome: string }[] }) => [
        e.notice.rule,
        e.deliveries.map((d) => d.outcome),
      ]),
      [["mail failing", ["delivered"]]],
    );
  } finally {
    await board.close();
    await source.close();
    await hook.close();
  }
});

Deno.test("GET /alerts: a rule the last evaluation left out (another board's file) reads not evaluated", async () => {
  const source = createMemorySource({ seed: readFixture() });
  const board = createBoardOn(new FakeTimers(), source, {
    alerts: alertsTo("http://127.0.0.1:9/"),
  });
  try {
    // The evaluating board's file has "huge backlog" only.
    await source.boardStore.writeAlertStates([], 5000, undefined, { evaluated: ["huge backlog"] });
    const response = await board.fetch(new Request("http://board.test/board/api/alerts"));
    const overview: AlertsOverview = await response.json();
    assert.equal(overview.asOf, 5000);
    assert.deepEqual(overview.rules.map((r) => [r.name, r.state]), [
      ["mail failing", "notEvaluated"],
      ["huge backlog", "ok"],
    ]);
  } finally {
    await board.close();
    await source.close();
  }
});

Deno.test("GET /alerts: a rule stored after the last pass reads not evaluated until the next", async () => {
  const timers = new FakeTimers();
  const source = createMemorySource({ seed: readFixture() });
  const board = createBoardOn(timers, source, { alerts: alertsTo("http://127.0.0.1:9/") });
  const call = callerOf(board);
  const stateOf = async (name: string) =>
    ((await call("GET", "/alerts")) as AlertsOverview).rules.find((r) => r.name === name)?.state;
  const evaluatedAt = async () => ((await call("GET", "/alerts")) as AlertsOverview).asOf;
  try {
    await alertPass(timers, 10_000, evaluatedAt);
    assert.equal(await stateOf("huge backlog"), "ok");
    await call("POST", "/alerts/rules", {
      name: "sms backlog",
      kind: "backlog",
      threshold: 1_000_000,
      sinks: ["ops"],
    });
    assert.equal(await stateOf("sms backlog"), "notEvaluated");
    await alertPass(timers, 10_000, evaluatedAt);
    assert.equal(await stateOf("sms backlog"), "ok");
  } finally {
    await board.close();
    await source.close();
  }
});

Deno.test("GET /alerts counts a muted firing alert as silenced, not firing; so does the alerts frame", async () => {
  const hook = webhookReceiver();
  const timers = new FakeTimers();
  const source = createMemorySource({ seed: readFixture() });
  const board = createBoardOn(timers, source, { alerts: alertsTo(hook.url) });
  const call = callerOf(board);
  const evaluatedAt = async () => ((await call("GET", "/alerts")) as AlertsOverview).asOf;
  const stream = await openStream(board.fetch, "http://board.test/board/api/events");
  const lastFrame = () =>
    dataOf<AlertsFramePayload>(stream.frames.filter(isEvent("alerts")).at(-1)!);
  try {
    await alertPass(timers, 10_000, evaluatedAt);
    const firing: AlertsOverview = await call("GET", "/alerts");
    assert.deepEqual([firing.firing, firing.silenced], [1, 0]);
    await call("POST", "/alerts/silences", {
      scope: { rule: "mail failing" },
      duration: "1h",
      reason: "known outage",
    });
    const muted: AlertsOverview = await call("GET", "/alerts");
    assert.deepEqual([muted.firing, muted.silenced], [0, 1]);
    assert.deepEqual(muted.rules[0].state, "firing", "the rule still fires, muted");
    await alertPass(timers, 10_000, evaluatedAt);
    await waitFor(() => lastFrame()?.silenced === 1, { what: "the frame of the muted pass" });
    assert.deepEqual([lastFrame().firing, lastFrame().byTask], [0, {}]);
  } finally {
    await stream.close();
    await board.close();
    await source.close();
    await hook.close();
  }
});

Deno.test("GET /alerts without the alerts option answers an empty list, enabled false", async () => {
  const source = createMemorySource({ seed: readFixture() });
  const board = createBoardOn(new FakeTimers(), source, {});
  try {
    const response = await board.fetch(new Request("http://board.test/board/api/alerts"));
    assert.deepEqual(await response.json(), {
      enabled: false,
      evaluateEveryMs: 15_000,
      asOf: null,
      firing: 0,
      silenced: 0,
      sinks: [],
      rules: [],
      silences: [],
    });
    const history = await board.fetch(new Request("http://board.test/board/api/alerts/history"));
    assert.deepEqual(await history.json(), { entries: [] });
  } finally {
    await board.close();
    await source.close();
  }
});

Deno.test("GET /alerts/history filters by rule, task and state, newest first, up to the limit", async () => {
  const source = createMemorySource();
  const board = createBoardOn(new FakeTimers(), source, {});
  const notice = (rule: string, task: string | null, state: "firing" | "resolved", at: number) => ({
    notice: {
      rule,
      kind: "failed" as const,
      state,
      key: `${rule}:${task}:${at}`,
      task,
      figure: 7,
      threshold: 5,
      unit: "count" as const,
      since: at,
      at,
      repeat: false,
      link: "/board/alerts",
      summary: `${rule} ${state}`,
    },
    deliveries: [],
    silencedBy: null,
  });
  const keys = async (query: string) => {
    const response = await board.fetch(
      new Request(`http://board.test/board/api/alerts/history${query}`),
    );
    assert.equal(response.status, 200, query);
    const { entries } = await response.json();
    return entries.map((e: { notice: { key: string } }) => e.notice.key);
  };
  try {
    await source.boardStore.appendAlertHistory([
      notice("mail failing", "mail", "firing", 1),
      notice("sms failing", "sms", "firing", 2),
      notice("mail failing", "mail", "resolved", 3),
      notice("backlog", "mail", "firing", 4),
      notice("redis", null, "firing", 5),
    ], 1000);
    assert.deepEqual(await keys("?rule=mail%20failing"), [
      "mail failing:mail:3",
      "mail failing:mail:1",
    ]);
    assert.deepEqual(await keys("?task=mail&state=firing"), [
      "backlog:mail:4",
      "mail failing:mail:1",
    ]);
    assert.deepEqual(await keys("?state=resolved"), ["mail failing:mail:3"]);
    assert.deepEqual(await keys("?task=mail&limit=1"), ["backlog:mail:4"]);
    assert.deepEqual(await keys("?rule=nobody"), []);
    const refused = await board.fetch(
      new Request("http://board.test/board/api/alerts/history?state=sometimes"),
    );
    assert.equal(refused.status, 400);
    assert.equal((await refused.json()).param, "state");
  } finally {
    await board.close();
    await source.close();
  }
});

Deno.test("GET /alerts/history refuses a limit above 1000, naming it", async () => {
  const source = createMemorySource();
  const board = createBoardOn(new FakeTimers(), source, {});
  try {
    const response = await board.fetch(
      new Request("http://board.test/board/api/alerts/history?limit=1001"),
    );
    assert.equal(response.status, 400);
    const body = await response.json();
    assert.deepEqual([body.code, body.param], ["INVALID_PARAM", "limit"]);
  } finally {
    await board.close();
    await source.close();
  }
});
