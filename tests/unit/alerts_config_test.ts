import assert from "node:assert/strict";
import { AlertConfigError, parseAlertsConfig } from "../../src/alerts/config.ts";
import { BoardError, errorBody } from "../../src/errors.ts";

const SECRET = "at-least-32-characters-long-secret";

/** The example file. */
function example(): Record<string, unknown> {
  return {
    evaluateEvery: "15s",
    sinks: [
      { name: "ops", type: "webhook", url: "https://hooks.example/board", secret: SECRET },
      { name: "chat", type: "slack", url: "https://hooks.slack.com/services/x" },
    ],
    rules: [{
      name: "send-email failing",
      kind: "failed",
      tasks: ["send-email"],
      threshold: 5,
      for: "0s",
      repeat: "1h",
      sinks: ["ops"],
    }],
  };
}

/** The field a bad file is refused for, and that the refusal is a 400 INVALID_PARAM. */
function refusedField(file: unknown): string {
  try {
    parseAlertsConfig(file);
  } catch (error) {
    assert.ok(error instanceof AlertConfigError && error instanceof BoardError);
    const { status, body } = errorBody(error);
    assert.equal(status, 400);
    assert.equal(body.code, "INVALID_PARAM");
    return body.param!;
  }
  assert.fail("the file was accepted");
}

Deno.test("parseAlertsConfig() reads the issue's example, durations in ms", () => {
  const config = parseAlertsConfig(example());
  assert.equal(config.evaluateEveryMs, 15_000);
  assert.equal(config.boardUrl, null);
  assert.equal(
    parseAlertsConfig({ boardUrl: "https://ops.example/board/" }).boardUrl,
    "https://ops.example/board",
  );
  assert.deepEqual(config.rules, [{
    name: "send-email failing",
    kind: "failed",
    tasks: ["send-email"],
    threshold: 5,
    windowMs: null,
    minFinished: null,
    forMs: 0,
    repeatMs: 3_600_000,
    sinks: ["ops"],
  }]);
  assert.deepEqual(config.sinks.map((s) => [s.name, s.type, s.secret, s.timeoutMs, s.retries]), [
    ["ops", "webhook", SECRET, 10_000, 3],
    ["chat", "slack", null, 10_000, 3],
  ]);
});

Deno.test("parseAlertsConfig() fills defaults: every 15 s, every task, failureRate's window", () => {
  const config = parseAlertsConfig({
    sinks: [{ name: "chat", type: "slack", url: "http://127.0.0.1:9/hook" }],
    rules: [
      { name: "rate", kind: "failureRate", threshold: 10, sinks: ["chat"] },
      { name: "late", kind: "oldestWaiting", threshold: "10m", sinks: ["chat"] },
      { name: "store", kind: "redis", sinks: ["chat"] },
    ],
  });
  assert.equal(config.evaluateEveryMs, 15_000);
  const [rate, late, store] = config.rules;
  assert.deepEqual([rate.tasks, rate.windowMs, rate.minFinished, rate.forMs, rate.repeatMs], [
    null,
    900_000,
    20,
    0,
    0,
  ]);
  assert.equal(late.threshold, 600_000);
  assert.equal(store.threshold, 90);
});

Deno.test("parseAlertsConfig() refuses a bad rule with 400 naming the field", () => {
  const cases: [string, (file: Record<string, unknown>) => void][] = [
    ["rules[0].threshold", (f) => rule(f).threshold = -1],
    ["rules[0].threshold", (f) => rule(f).threshold = "5m"],
    ["rules[0].threshold", (f) => delete rule(f).threshold],
    ["rules[0].kind", (f) => rule(f).kind = "sometimes"],
    ["rules[0].name", (f) => rule(f).name = ""],
    ["rules[0].for", (f) => rule(f).for = "soon"],
    ["rules[0].repeat", (f) => rule(f).repeat = "1w"],
    ["rules[0].sinks[0]", (f) => rule(f).sinks = ["nowhere"]],
    ["rules[0].sinks", (f) => rule(f).sinks = []],
    ["rules[0].sinks[1]", (f) => rule(f).sinks = ["ops", "ops"]],
    ["rules[0].sinks[2]", (f) => rule(f).sinks = ["ops", "chat", "ops"]],
    ["rules[0].tasks[0]", (f) => rule(f).tasks = [""]],
    ["rules[0].window", (f) => rule(f).window = "1m"],
    ["rules[0].colour", (f) => rule(f).colour = "red"],
    ["rules[1].name", (f) => (f.rules as unknown[]).push({ ...rule(f) })],
    ["rules", (f) => f.rules = {}],
    ["evaluateEvery", (f) => f.evaluateEvery = "1s"],
    ["evaluateEvery", (f) => f.evaluateEvery = "31s"],
    ["sinks[0].secret", (f) => sink(f).secret = "short"],
    ["sinks[0].url", (f) => sink(f).url = "ftp://hooks.example/board"],
    ["sinks[0].type", (f) => sink(f).type = "email"],
    ["sinks[0].retries", (f) => sink(f).retries = 11],
    ["sinks[0].timeout", (f) => sink(f).timeout = "2m"],
    ["sinks[2].name", (f) => (f.sinks as unknown[]).push({ ...sink(f) })],
    ["sinks[1].secret", (f) => (f.sinks as Record<string, unknown>[])[1].secret = SECRET],
    ["webhooks", (f) => f.webhooks = []],
    ["boardUrl", (f) => f.boardUrl = "board.example"],
  ];
  for (const [field, spoil] of cases) {
    const file = example();
    spoil(file);
    assert.equal(refusedField(file), field, `refused for ${field}`);
  }
});

Deno.test("parseAlertsConfig() refuses tasks on a rule about the store", () => {
  const file = example();
  Object.assign(rule(file), { kind: "redis", threshold: 80 });
  assert.equal(refusedField(file), "rules[0].tasks");
});

Deno.test("a refusal never repeats a sink's secret", () => {
  const file = example();
  sink(file).secret = "x".repeat(2000);
  try {
    parseAlertsConfig(file);
    assert.fail("accepted");
  } catch (error) {
    assert.ok(!(error as Error).message.includes("xxxxxxxx"), (error as Error).message);
  }
});

function rule(file: Record<string, unknown>): Record<string, unknown> {
  return (file.rules as Record<string, unknown>[])[0];
}

function sink(file: Record<string, unknown>): Record<string, unknown> {
  return (file.sinks as Record<string, unknown>[])[0];
}
