import assert from "node:assert/strict";
import { packagesFor } from "../../scripts/prerequisites.ts";
import { CHECK_ARGS } from "../../scripts/test.ts";

const ROOT = new URL("../../", import.meta.url);
const tasks: Record<string, string> =
  JSON.parse(Deno.readTextFileSync(new URL("deno.json", ROOT))).tasks;

/** The commands `.ci/run` runs: its lines without comments. */
const ciCommands = Deno.readTextFileSync(new URL(".ci/run", ROOT))
  .split("\n")
  .map((line) => line.replace(/(^|\s)#.*$/, ""))
  .join("\n");

function timesCi(command: RegExp): number {
  return ciCommands.match(new RegExp(command.source, "g"))?.length ?? 0;
}

Deno.test("deno task check is its style steps, the test run's type check and its package steps", () => {
  assert.equal(
    tasks.check,
    `deno task check:style && deno check ${CHECK_ARGS.join(" ")} && deno task check:package`,
  );
});

Deno.test("CI runs each step of deno task check once: the type check inside deno task test", () => {
  // fmt, lint and a cached type check ran twice: before the tests and again in deno task check.
  assert.equal(timesCi(/deno task test\b(?!:)/), 1);
  assert.equal(timesCi(/deno task check:style\b/), 1);
  assert.equal(timesCi(/deno task check:package\b/), 1);
  assert.equal(timesCi(/deno task check\b(?!:)/), 0);
  assert.equal(timesCi(/deno (?:fmt|lint|check|doc)\b/), 0);
});

Deno.test("CI starts the tests before it waits for the bundle and style checks", () => {
  // They held the tests back by 15-20 s of a clean-clone run.
  const checks = ciCommands.indexOf("deno task check:style");
  const tests = ciCommands.indexOf("deno task test");
  const waitForChecks = ciCommands.indexOf('wait "$checks_pid"');
  assert.ok(checks >= 0 && tests > checks && waitForChecks > tests);
  assert.match(ciCommands, /deno task check:package\) >"\$checks_log" 2>&1 &\n/);
  assert.match(ciCommands, /deno task test &\n/);
});

/** The apt installs of `.ci/run`, in order: each one's packages. */
function aptSteps(): string[][] {
  const steps = /^steps=\((.*)\)$/m.exec(ciCommands);
  assert.ok(steps, ".ci/run lists no steps=(...) of packages");
  return [...steps[1].matchAll(/"([^"]+)"/g)].map((step) => step[1].split(" "));
}

Deno.test("CI installs every package a test group needs, redis-server first, one install each", () => {
  // The redis group is the run's longest and needs only redis-server; the e2e and postgres groups
  // start a redis-server too.
  const steps = aptSteps();
  assert.deepEqual(steps[0], ["redis-server"]);
  assert.deepEqual(
    steps.flat().toSorted(),
    packagesFor([{ redis: true, postgres: true, browser: true }]).toSorted(),
  );
});

Deno.test("CI starts the tests while apt installs, telling them what it has still to install", () => {
  // The parts waited for the whole install (apt-get update and four packages) on a fresh machine.
  const aptStarted = ciCommands.indexOf("apt_pid=$!");
  const tests = ciCommands.indexOf("deno task test");
  const aptWaited = ciCommands.indexOf('wait "$apt_pid"');
  assert.ok(aptStarted >= 0 && tests > aptStarted && aptWaited > tests);
  assert.match(ciCommands, /TEST_INSTALLING="\$installing" [^\n]*deno task test &\n/);
});

Deno.test("CI downloads Deno's dependencies once, beside apt, before the parts that use them", () => {
  const aptStarted = ciCommands.indexOf("apt_pid=$!");
  const install = ciCommands.search(/^deno install\b/m);
  assert.ok(install > aptStarted && aptStarted >= 0);
  assert.ok(install < ciCommands.indexOf("deno task check:style"));
  assert.ok(install < ciCommands.indexOf("deno task test"));
});
