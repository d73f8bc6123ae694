import assert from "node:assert/strict";
import { budgetProblems, parseDryRun } from "../../scripts/publish_budget.ts";

const listing = [
  "Simulating publish of @x/queue-board@0.1.0 with files:",
  "   file:///repo/LICENSE (1.06KB)",
  "   file:///repo/mod.ts (3.6KB)",
  "   file:///repo/ui/dist/assets.ts (508.91KB)",
  "Success Dry run complete",
].join("\n");

Deno.test("parseDryRun reads each published file's path and size", () => {
  assert.deepEqual(parseDryRun(listing, "/repo/"), [
    { path: "LICENSE", bytes: 1.06 * 1024 },
    { path: "mod.ts", bytes: 3.6 * 1024 },
    { path: "ui/dist/assets.ts", bytes: 508.91 * 1024 },
  ]);
});

Deno.test("budgetProblems passes the module, its LICENSE and the built UI", () => {
  assert.deepEqual(budgetProblems(parseDryRun(listing, "/repo/")), []);
});

Deno.test("budgetProblems names UI sources, tests and scripts that would ship", () => {
  const files = [
    { path: "LICENSE", bytes: 1 },
    { path: "ui/pages/job/index.ts", bytes: 1 },
    { path: "tests/unit/a_test.ts", bytes: 1 },
    { path: "scripts/build_ui.ts", bytes: 1 },
  ];
  assert.deepEqual(budgetProblems(files), [
    "ships ui/pages/job/index.ts",
    "ships tests/unit/a_test.ts",
    "ships scripts/build_ui.ts",
  ]);
});

Deno.test("budgetProblems refuses a package without a LICENSE or over its budget", () => {
  assert.deepEqual(budgetProblems([{ path: "mod.ts", bytes: 3 * 1024 * 1024 }], 1024 * 1024), [
    "ships no LICENSE",
    "weighs 3.00 MB, over 1.00 MB",
  ]);
});
