/**
 * The Alerts page's rule editor as data (`ui/pages/alerts/rule_draft.ts`)
 * and its figures in words (`threshold.ts`): a draft becomes the rule's JSON
 * in the file format, a mistake is named by its field before anything is
 * sent, and the API's refusal lands on the field its `param` names.
 */
import assert from "node:assert/strict";
import { parseAlertsConfig } from "../../src/alerts/config.ts";
import { KIND_THRESHOLDS } from "../../src/contract/alerts.ts";
import { ApiError } from "../../ui/lib/api.ts";
import { draftOf, errorsFromApi, ruleFileOf } from "../../ui/pages/alerts/rule_draft.ts";
import { describeCondition, durationText, formatFigure } from "../../ui/pages/alerts/threshold.ts";
import type { AlertRuleView } from "../../ui/pages/alerts/types.ts";

const SINKS = [{
  name: "ops",
  type: "webhook" as const,
  url: "http://127.0.0.1:9/h",
  secret: "s".repeat(32),
}];

/** A rule as the server would show it, after the file's validation. */
function viewOf(rule: Record<string, unknown>): AlertRuleView {
  const [parsed] = parseAlertsConfig({ sinks: SINKS, rules: [rule] }).rules;
  const { unit } = KIND_THRESHOLDS[parsed.kind];
  return {
    ...parsed,
    unit,
    unknownSinks: [],
    origin: "stored",
    state: "ok",
    firingSince: null,
    alerts: [],
  };
}

Deno.test("a new rule's draft becomes the file's JSON, which the file's validation takes", () => {
  const draft = {
    ...draftOf(),
    name: "mail failing",
    kind: "failed" as const,
    tasks: "send-email, send-sms",
    threshold: "5",
    sinks: ["ops"],
  };
  const result = ruleFileOf(draft);
  assert.ok("rule" in result);
  assert.deepEqual(result.rule, {
    name: "mail failing",
    kind: "failed",
    tasks: ["send-email", "send-sms"],
    threshold: 5,
    for: "0s",
    repeat: "1h",
    sinks: ["ops"],
  });
  assert.equal(parseAlertsConfig({ sinks: SINKS, rules: [result.rule] }).rules[0].threshold, 5);
});

Deno.test("a rule's draft gives back the same rule: durations in the largest unit, failureRate's window", () => {
  const file = {
    name: "mail rate",
    kind: "failureRate" as const,
    tasks: ["send-email"],
    threshold: 12.5,
    window: "30m",
    minFinished: 50,
    for: "90s",
    repeat: "2h",
    sinks: ["ops"],
  };
  const result = ruleFileOf(draftOf(viewOf(file)));
  assert.ok("rule" in result);
  assert.deepEqual(result.rule, file);
});

/** The JSON of a new rule's draft with `fields` typed in, sending to ops. */
function fileOf(fields: Partial<ReturnType<typeof draftOf>>) {
  const result = ruleFileOf({ ...draftOf(), name: "r", sinks: ["ops"], ...fields });
  assert.ok("rule" in result);
  return result.rule;
}

Deno.test("the store's kinds send no tasks; newErrorGroup no threshold", () => {
  const redis = fileOf({ kind: "redis", tasks: "mail" });
  assert.equal(redis.tasks, undefined);
  assert.equal(redis.threshold, undefined, "empty: the kind's default (90 %)");
  assert.equal(fileOf({ kind: "newErrorGroup", threshold: "3" }).threshold, undefined);
});

Deno.test("mistakes are named by field before anything is sent", () => {
  const result = ruleFileOf({
    ...draftOf(),
    kind: "oldestWaiting",
    threshold: "ten minutes",
    repeat: "",
  });
  assert.ok("errors" in result);
  assert.deepEqual(Object.keys(result.errors).sort(), ["name", "repeat", "sinks", "threshold"]);
  const missing = ruleFileOf({ ...draftOf(), name: "b", kind: "backlog", sinks: ["ops"] });
  assert.ok("errors" in missing);
  assert.deepEqual(missing.errors, { threshold: "This kind needs a threshold." });
});

Deno.test("the API's 400 lands on the field its param names, else on the form", () => {
  const refusal = (param?: string) => new ApiError(400, "INVALID_PARAM", "no such sink", param);
  assert.deepEqual(errorsFromApi(refusal("sinks[0]")), { sinks: "no such sink" });
  assert.deepEqual(errorsFromApi(refusal("rules[0].threshold")), { threshold: "no such sink" });
  assert.deepEqual(errorsFromApi(refusal("threshold")), { threshold: "no such sink" });
  assert.deepEqual(errorsFromApi(refusal()), { form: "no such sink" });
  assert.deepEqual(errorsFromApi(new ApiError(409, "CONFLICT", "declared in code")), {
    form: "declared in code",
  });
});

Deno.test("figures and conditions read in the threshold's unit", () => {
  assert.equal(formatFigure(1200, "count"), "1,200");
  assert.equal(formatFigure(12.345, "percent"), "12.3%");
  assert.equal(formatFigure(250_000, "duration"), "4m 10s");
  assert.equal(formatFigure(null, "count"), "—");
  assert.equal(
    describeCondition({
      kind: "backlog",
      threshold: 100,
      unit: "count",
      windowMs: null,
      minFinished: null,
    }),
    "above 100",
  );
  assert.equal(
    describeCondition({
      kind: "noProgress",
      threshold: 600_000,
      unit: "duration",
      windowMs: null,
      minFinished: null,
    }),
    "longer than 10m",
  );
  assert.equal(
    describeCondition({
      kind: "failureRate",
      threshold: 20,
      unit: "percent",
      windowMs: 900_000,
      minFinished: 20,
    }),
    "above 20% over 15m, ≥ 20 finished",
  );
  assert.deepEqual([
    durationText(0),
    durationText(90_000),
    durationText(3_600_000),
    durationText(1500),
  ], [
    "0s",
    "90s",
    "1h",
    "1500",
  ]);
});
