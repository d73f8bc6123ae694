import assert from "node:assert/strict";
import { BoardOptionsError, resolveOptions } from "../../src/options.ts";

const sinks = [{ name: "chat", type: "slack", url: "https://hooks.slack.com/services/x" }] as const;

Deno.test("the alerts option resolves to rules and sinks with durations in ms", () => {
  const { alerts } = resolveOptions({
    alerts: {
      evaluateEvery: "30s",
      sinks: [...sinks],
      rules: [{ name: "piling up", kind: "backlog", threshold: 500, for: "5m", sinks: ["chat"] }],
    },
  });
  assert.equal(alerts?.evaluateEveryMs, 30_000);
  assert.deepEqual(alerts?.rules.map((r) => [r.name, r.threshold, r.forMs]), [
    ["piling up", 500, 300_000],
  ]);
});

Deno.test("without the alerts option there is nothing to evaluate", () => {
  assert.equal(resolveOptions({}).alerts, null);
});

Deno.test("a bad alerts option throws naming the field inside it", () => {
  assert.throws(
    () =>
      resolveOptions({
        alerts: {
          sinks: [...sinks],
          rules: [{ name: "piling up", kind: "backlog", threshold: -3, sinks: ["chat"] }],
        },
      }),
    (error: unknown) =>
      error instanceof BoardOptionsError &&
      error.message.includes('option "alerts.rules[0].threshold" must be a whole number'),
  );
  assert.throws(
    () => resolveOptions({ alerts: [] as never }),
    (error: unknown) =>
      error instanceof BoardOptionsError && error.message.includes('option "alerts" must be'),
  );
});
