/**
 * The evaluator's state machine on a clock the test moves: pending → firing
 * after `for`, repeats every `repeat`, a resolve notice when it clears, one
 * dedupe key per incident, and silences.
 */

import assert from "node:assert/strict";
import { evaluateRules, type Evaluation, stateKey } from "../../src/alerts/evaluate.ts";
import type { AlertSnapshot } from "../../src/alerts/figures.ts";
import { KnownShapes } from "../../src/alerts/known_shapes.ts";
import {
  type AlertRule,
  type AlertSilence,
  type AlertState,
  MAX_ALERT_STATES,
} from "../../src/contract/alerts.ts";
import { ruleOf, snapshotOf, taskFigures } from "../helpers/alert_snapshot.ts";

const T0 = Date.UTC(2026, 10, 26, 12, 0, 0);
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const BOARD = "https://board.example/board";

function failedRule(extra: Partial<AlertRule> = {}): AlertRule {
  return ruleOf("failed", 5, { name: "mail failing", tasks: ["mail"], ...extra });
}

/** A snapshot where each task named has that many failed jobs. */
function failing(counts: Record<string, number>): AlertSnapshot {
  const tasks = Object.entries(counts).map(([task, failed]) => [task, taskFigures({ failed })]);
  return snapshotOf(Object.fromEntries(tasks));
}

/**
 * An evaluator driven pass by pass, keeping its states between passes as
 * the loop will.
 */
function evaluator(rules: AlertRule[], silences: AlertSilence[] = []) {
  let states: ReadonlyMap<string, AlertState> = new Map();
  const shapes = new KnownShapes();
  return {
    silences,
    pass(at: number, snapshot: AlertSnapshot, ruleSet = rules): Evaluation {
      const result = evaluateRules({
        rules: ruleSet,
        snapshot,
        states,
        silences,
        shapes,
        now: at,
        boardUrl: BOARD,
      });
      states = result.states;
      return result;
    },
    get states() {
      return [...states.values()];
    },
  };
}

/** `[state, key, repeat, silencedBy]` of each notice. */
function told(evaluation: Evaluation) {
  return evaluation.notices.map(({ notice, silencedBy }) =>
    [notice.state, notice.key, notice.repeat, silencedBy] as const
  );
}

Deno.test("for 0: a breach fires at once, with a notice carrying the figure and a link", () => {
  const alerts = evaluator([failedRule()]);
  assert.deepEqual(alerts.pass(T0, failing({ mail: 5 })).notices, [], "5 is not above 5");
  const { notices } = alerts.pass(T0 + 15 * SECOND, failing({ mail: 6 }));
  assert.equal(notices.length, 1);
  const [{ notice, sinks, silencedBy }] = notices;
  assert.deepEqual(sinks, ["ops"]);
  assert.equal(silencedBy, null);
  assert.deepEqual(notice, {
    rule: "mail failing",
    kind: "failed",
    state: "firing",
    key: `mail%20failing/mail/${T0 + 15 * SECOND}`,
    task: "mail",
    figure: 6,
    threshold: 5,
    unit: "count",
    since: T0 + 15 * SECOND,
    at: T0 + 15 * SECOND,
    repeat: false,
    link: `${BOARD}/tasks/mail`,
    summary: "mail: failed is 6, above 5",
  });
  assert.deepEqual(alerts.states.map((s) => [s.phase, s.firingSince, s.notifiedAt]), [
    ["firing", T0 + 15 * SECOND, T0 + 15 * SECOND],
  ]);
});

Deno.test("for: pending until the breach has held that long; a pending one that clears says nothing", () => {
  const alerts = evaluator([failedRule({ forMs: 30 * SECOND })]);
  assert.deepEqual(told(alerts.pass(T0, failing({ mail: 9 }))), []);
  assert.deepEqual(alerts.states.map((s) => [s.phase, s.pendingSince]), [["pending", T0]]);
  assert.deepEqual(told(alerts.pass(T0 + 15 * SECOND, failing({ mail: 9 }))), []);
  assert.deepEqual(told(alerts.pass(T0 + 30 * SECOND, failing({ mail: 9 }))), [
    ["firing", `mail%20failing/mail/${T0 + 30 * SECOND}`, false, null],
  ]);

  const flapping = evaluator([failedRule({ forMs: 30 * SECOND })]);
  flapping.pass(T0, failing({ mail: 9 }));
  assert.deepEqual(told(flapping.pass(T0 + 15 * SECOND, failing({ mail: 0 }))), []);
  assert.deepEqual(flapping.states, []);
  assert.deepEqual(told(flapping.pass(T0 + 30 * SECOND, failing({ mail: 9 }))), [], "pending anew");
});

Deno.test("repeat: a firing alert is told again each interval, with the same key", () => {
  const alerts = evaluator([failedRule({ repeatMs: 60 * MINUTE })]);
  const [[, key]] = told(alerts.pass(T0, failing({ mail: 9 })));
  assert.deepEqual(told(alerts.pass(T0 + 30 * MINUTE, failing({ mail: 9 }))), []);
  assert.deepEqual(told(alerts.pass(T0 + 60 * MINUTE, failing({ mail: 9 }))), [
    ["firing", key, true, null],
  ]);
  assert.deepEqual(told(alerts.pass(T0 + 90 * MINUTE, failing({ mail: 9 }))), []);
  assert.deepEqual(told(alerts.pass(T0 + 120 * MINUTE, failing({ mail: 9 }))), [
    ["firing", key, true, null],
  ]);

  const once = evaluator([failedRule()]);
  once.pass(T0, failing({ mail: 9 }));
  assert.deepEqual(
    told(once.pass(T0 + 7 * 24 * 60 * MINUTE, failing({ mail: 9 }))),
    [],
    "repeat 0",
  );
});

Deno.test("a resolve notice when it clears, with the incident's key; the next incident has a new key", () => {
  const alerts = evaluator([failedRule()]);
  const [[, first]] = told(alerts.pass(T0, failing({ mail: 9 })));
  const resolved = alerts.pass(T0 + MINUTE, failing({ mail: 0 }));
  assert.deepEqual(told(resolved), [["resolved", first, false, null]]);
  assert.equal(resolved.notices[0].notice.since, T0);
  assert.equal(resolved.notices[0].notice.summary, "mail: failed is 0, no longer above 5");
  assert.deepEqual(alerts.states.map((s) => [s.phase, s.resolvedAt]), [["resolved", T0 + MINUTE]]);
  assert.deepEqual(told(alerts.pass(T0 + 2 * MINUTE, failing({ mail: 0 }))), [], "told once");
  const [[, second]] = told(alerts.pass(T0 + 3 * MINUTE, failing({ mail: 9 })));
  assert.notEqual(second, first);
});

Deno.test("one alert per task in scope, each with its own key", () => {
  const alerts = evaluator([failedRule({ tasks: null })]);
  const keys = told(alerts.pass(T0, failing({ mail: 9, pay: 9, sms: 1 }))).map(([, key]) => key);
  assert.deepEqual(keys, [`mail%20failing/mail/${T0}`, `mail%20failing/pay/${T0}`]);
});

Deno.test("a task that is gone resolves its alert; a rule that is gone drops its states", () => {
  const alerts = evaluator([failedRule({ tasks: null })]);
  alerts.pass(T0, failing({ mail: 9, pay: 9 }));
  assert.deepEqual(
    told(alerts.pass(T0 + MINUTE, failing({ mail: 9 }))).map(([state, key]) => [state, key]),
    [["resolved", `mail%20failing/pay/${T0}`]],
  );
  assert.deepEqual(told(alerts.pass(T0 + 2 * MINUTE, failing({ mail: 9 }), [])), []);
  assert.deepEqual(alerts.states, []);
});

Deno.test("a rule removed while firing resolves its alerts, told as removed; a pending one goes quietly", () => {
  const rule = failedRule({ tasks: null, forMs: MINUTE });
  const alerts = evaluator([rule]);
  alerts.pass(T0, failing({ mail: 9 }));
  const [[, key]] = told(alerts.pass(T0 + MINUTE, failing({ mail: 9, pay: 9 })));
  assert.deepEqual(alerts.states.map((s) => [s.subject, s.phase]), [
    ["mail", "firing"],
    ["pay", "pending"],
  ]);
  const removed = evaluateRules({
    rules: [],
    removed: [rule],
    snapshot: failing({ mail: 9, pay: 9 }),
    states: new Map(alerts.states.map((s) => [stateKey(s.rule, s.subject), s])),
    silences: [],
    shapes: new KnownShapes(),
    now: T0 + 2 * MINUTE,
    boardUrl: BOARD,
  });
  assert.deepEqual(told(removed), [["resolved", key, false, null]]);
  assert.equal(
    removed.notices[0].notice.summary,
    "mail: the rule was removed, so this alert is no longer watched",
  );
  assert.deepEqual(removed.notices[0].sinks, ["ops"]);
  assert.equal(removed.states.size, 0, "a removed rule keeps no state");
});

Deno.test("a snapshot the store could not give moves no state and tells nothing", () => {
  const alerts = evaluator([failedRule()]);
  alerts.pass(T0, failing({ mail: 9 }));
  const before = alerts.states;
  const down = { ...failing({}), tasks: null };
  assert.deepEqual(told(alerts.pass(T0 + MINUTE, down)), []);
  assert.deepEqual(alerts.states, before);
});

Deno.test("silences mute a rule, a task or everything until their time, and no longer", () => {
  const silence = (scope: AlertSilence["scope"], until: number): AlertSilence => ({
    id: `s-${JSON.stringify(scope)}`,
    scope,
    until,
    author: "ada",
    reason: "deploying",
    createdAt: T0,
  });
  for (
    const scope of [{ rule: "mail failing" }, { task: "mail" }, "all"] as AlertSilence["scope"][]
  ) {
    const muted = silence(scope, T0 + 10 * MINUTE);
    const alerts = evaluator([failedRule({ repeatMs: 5 * MINUTE })], [muted]);
    assert.deepEqual(
      told(alerts.pass(T0, failing({ mail: 9 }))).map(([state, , , by]) => [state, by]),
      [["firing", muted.id]],
      "the firing notice is muted",
    );
    assert.equal(alerts.states[0].notifiedAt, null);
    assert.deepEqual(told(alerts.pass(T0 + 5 * MINUTE, failing({ mail: 9 }))).length, 1);
    const after = told(alerts.pass(T0 + 10 * MINUTE, failing({ mail: 9 })));
    assert.deepEqual(after.map(([state, , repeat, by]) => [state, repeat, by]), [
      ["firing", false, null],
    ], "told once the silence ends, as a first notice");
  }
  const other = evaluator([failedRule()], [silence({ task: "pay" }, T0 + MINUTE)]);
  assert.deepEqual(told(other.pass(T0, failing({ mail: 9 })))[0][3], null, "another task's");
});

Deno.test("a muted firing is kept once per repeat, not on every pass: the history keeps its room", () => {
  const muted: AlertSilence = {
    id: "s1",
    scope: "all",
    until: T0 + 30 * MINUTE,
    author: "ada",
    reason: "maintenance",
    createdAt: T0,
  };
  for (const [repeatMs, expected] of [[0, 1], [10 * MINUTE, 2]] as const) {
    const alerts = evaluator([failedRule({ repeatMs })], [muted]);
    let kept = 0;
    // A pass every 15 s for 20 minutes, the silence in force throughout.
    for (let at = T0; at < T0 + 20 * MINUTE; at += 15 * SECOND) {
      const notices = told(alerts.pass(at, failing({ mail: 9 })));
      assert.ok(notices.every(([, , , by]) => by === muted.id), "every one is muted");
      kept += notices.length;
    }
    assert.equal(kept, expected, `repeat ${repeatMs} ms: muted notices kept`);
    const after = told(alerts.pass(T0 + 30 * MINUTE, failing({ mail: 9 })));
    assert.deepEqual(after.map(([state, , repeat, by]) => [state, repeat, by]), [
      ["firing", false, null],
    ], "told once the silence ends, as a first notice");
  }
});

Deno.test("past the store's bound the oldest resolved alerts go first: the firing ones stay, so the states can be kept", () => {
  const alerts = evaluator([ruleOf("failed", 5)]);
  const tasks = (from: number, to: number, failed: number) =>
    Object.fromEntries(
      Array.from({ length: to - from }, (_, i) => [`task-${from + i}`, failed]),
    );
  // 6,000 tasks fail, then clear while 5,000 others fail: 11,000 alerts in 24 h.
  alerts.pass(T0, failing(tasks(0, 6000, 9)));
  alerts.pass(T0 + MINUTE, failing({ ...tasks(0, 6000, 0), ...tasks(6000, 11_000, 9) }));
  const states = alerts.states;
  assert.equal(states.length, MAX_ALERT_STATES, "within what the store keeps");
  assert.equal(states.filter((state) => state.phase === "firing").length, 5000);
});

Deno.test("an incident whose firing was never told is resolved without a notice", () => {
  const muted: AlertSilence = {
    id: "s1",
    scope: "all",
    until: T0 + MINUTE,
    author: "ada",
    reason: "maintenance",
    createdAt: T0,
  };
  const alerts = evaluator([failedRule()], [muted]);
  alerts.pass(T0, failing({ mail: 9 }));
  assert.deepEqual(told(alerts.pass(T0 + 2 * MINUTE, failing({ mail: 0 }))), []);
  assert.equal(alerts.states[0].phase, "resolved");
});

Deno.test("a rule stored before sinks had to be unique tells each of its sinks once", () => {
  const alerts = evaluator([failedRule({ sinks: ["ops", "ops", "chat", "ops"] })]);
  const { notices } = alerts.pass(T0, failing({ mail: 6 }));
  assert.deepEqual(notices.map(({ sinks }) => sinks), [["ops", "chat"]]);
});
