/**
 * What fires, as the top bar, the sidebar and the overview's rows show it
 * (`ui/lib/firing.ts`): counted from `GET /alerts`, then following the
 * event stream's `alerts` frames, and polled while the stream is down.
 */
import assert from "node:assert/strict";
import { signal } from "@preact/signals";
import { createFiringWatch, type Firing, firingOf, withFrame } from "../../ui/lib/firing.ts";
import type { AlertsFrame } from "../../ui/lib/live.ts";
import { BACKSTOP_FACTOR } from "../../ui/lib/use_live_resource.ts";
import type { AlertRuleView, AlertsOverview } from "../../ui/pages/alerts/types.ts";

type Instance = AlertRuleView["alerts"][number];

function instance(task: string | null, phase: Instance["phase"]): Instance {
  return {
    subject: task,
    task,
    phase,
    pendingSince: 1,
    firingSince: phase === "firing" ? 2 : null,
    resolvedAt: phase === "resolved" ? 3 : null,
    figure: 7,
    notifiedAt: null,
    muted: false,
  };
}

function rule(name: string, alerts: Instance[]): AlertRuleView {
  return {
    name,
    kind: "failed",
    tasks: null,
    threshold: 5,
    unit: "count",
    windowMs: null,
    minFinished: null,
    forMs: 0,
    repeatMs: 0,
    sinks: ["ops"],
    unknownSinks: [],
    origin: "code",
    state: alerts.some((a) => a.phase === "firing") ? "firing" : "ok",
    firingSince: null,
    alerts,
  };
}

function overview(rules: AlertRuleView[], enabled = true): AlertsOverview {
  const firing = rules.flatMap((r) => r.alerts).filter((a) => a.phase === "firing").length;
  return {
    enabled,
    evaluateEveryMs: 15_000,
    asOf: 1000,
    firing,
    silenced: 0,
    sinks: [{ name: "ops", type: "webhook" }],
    rules,
    silences: [],
  };
}

Deno.test("firingOf() counts firing alerts per task and names their rules", () => {
  const answer = overview([
    rule("mail failing", [instance("mail", "firing"), instance("sms", "pending")]),
    rule("mail backlog", [instance("mail", "firing"), instance("push", "resolved")]),
    rule("redis memory", [instance(null, "firing")]),
  ]);
  assert.deepEqual(firingOf(answer), {
    firing: 3,
    silenced: 0,
    byTask: { mail: 2 },
    asOf: 1000,
    rulesByTask: { mail: ["mail failing", "mail backlog"] },
  });
});

Deno.test("firingOf() leaves out the firing alerts a silence mutes, and says how many", () => {
  const muted = { ...instance("sms", "firing"), muted: true };
  const answer = {
    ...overview([rule("failing", [instance("mail", "firing"), muted])]),
    firing: 1,
    silenced: 1,
  };
  assert.deepEqual(firingOf(answer), {
    firing: 1,
    silenced: 1,
    byTask: { mail: 1 },
    asOf: 1000,
    rulesByTask: { mail: ["failing"] },
  });
});

Deno.test("firingOf() is null when alerts are not configured", () => {
  assert.equal(firingOf(overview([], false)), null);
});

Deno.test("withFrame() takes the frame's counts and keeps the names of tasks still firing", () => {
  const known: Firing = {
    firing: 2,
    silenced: 0,
    byTask: { mail: 1, sms: 1 },
    asOf: 1,
    rulesByTask: { mail: ["mail failing"], sms: ["sms failing"] },
  };
  const frame = { firing: 2, silenced: 1, byTask: { mail: 1, push: 1 }, asOf: 9 };
  assert.deepEqual(withFrame(frame, known), {
    firing: 2,
    silenced: 1,
    byTask: { mail: 1, push: 1 },
    asOf: 9,
    rulesByTask: { mail: ["mail failing"] },
  });
});

/** A watch over a fake API answering `answer`, its stream `stream`, its timer driven by hand. */
function watchOf(answer: () => AlertsOverview) {
  const reads: string[] = [];
  const api = {
    get: (path: string) => {
      reads.push(path);
      return Promise.resolve(answer());
    },
  } as never;
  const alerts = signal<AlertsFrame | null>(null);
  const stream = signal<"connecting" | "open" | "down">("open");
  let tick = () => {};
  const watch = createFiringWatch({
    api,
    live: { alerts },
    connectivity: { stream },
    refreshInterval: 5000,
    every: (fn) => {
      tick = fn;
      return () => tick = () => {};
    },
  });
  return { watch, reads, alerts, stream, tick: () => tick() };
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

Deno.test("the watch follows alerts frames, reading the rules only for a task it cannot name", async () => {
  let rules = [rule("mail failing", [instance("mail", "firing")])];
  const { watch, reads, alerts } = watchOf(() => overview(rules));
  await settled();
  assert.deepEqual(watch.state.value?.byTask, { mail: 1 });
  assert.equal(reads.length, 1);

  alerts.value = { firing: 1, silenced: 0, byTask: { mail: 1 }, asOf: 2000 };
  await settled();
  assert.equal(reads.length, 1, "the names of mail's rules are known");
  assert.equal(watch.state.value?.asOf, 2000);

  rules = [...rules, rule("sms failing", [instance("sms", "firing")])];
  alerts.value = { firing: 2, silenced: 0, byTask: { mail: 1, sms: 1 }, asOf: 3000 };
  await settled();
  assert.equal(reads.length, 2);
  assert.deepEqual(watch.state.value?.rulesByTask, {
    mail: ["mail failing"],
    sms: ["sms failing"],
  });
  watch.close();
});

Deno.test("the watch polls GET /alerts while the event stream is down, else as a backstop", async () => {
  let rules = [rule("mail failing", [instance("mail", "firing")])];
  const { watch, reads, stream, tick } = watchOf(() => overview(rules));
  await settled();
  for (let i = 1; i < BACKSTOP_FACTOR; i++) tick();
  await settled();
  assert.equal(reads.length, 1, "no poll while the stream is open");
  tick();
  await settled();
  assert.equal(reads.length, 2, "the backstop");

  stream.value = "down";
  rules = [];
  tick();
  await settled();
  assert.equal(reads.length, 3);
  assert.equal(watch.state.value?.firing, 0);
  watch.close();
});
