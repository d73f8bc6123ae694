import assert from "node:assert/strict";
import {
  batchesOf,
  CHECK_ARGS,
  classify,
  longestFirst,
  packagesNeeded,
} from "../../scripts/test.ts";

// Spelled in two parts: the classifier reads this file's text too, and it is a fast test.
const BROWSER_PACKAGE = "playwright" + "-core";
const POSTGRES_HELPER = "postgres" + "_server.ts";

/** Import lines written so that this file's own text imports none of them. */
function importing(...paths: string[]): string {
  return paths.map((path) => `import ${"from"} "${path}";`).join("\n");
}

const files: Record<string, string> = {
  "/p/tests/helpers/redis_server.ts": `export const x = 1;`,
  "/p/tests/helpers/fixture.ts": `import { x } from "./redis_server.ts";`,
  "/p/tests/e2e/browser.ts": `import { chromium } from "${BROWSER_PACKAGE}";`,
  "/p/tests/e2e/harness.ts": `import "./browser.ts";\nimport { x } from "../helpers/fixture.ts";`,
  "/p/tests/unit/a_test.ts": `import { y } from "../../src/y.ts";`,
  "/p/tests/http/b_test.ts": `import {\n  x,\n} from "../helpers/fixture.ts";`,
  "/p/tests/e2e/c_test.ts": `const h = await import("./harness.ts");`,
  "/p/tests/helpers/postgres_server.ts": `export const p = 1;`,
  "/p/tests/store/d_test.ts":
    `import { p } from "../helpers/${POSTGRES_HELPER}";\nimport { x } from "../helpers/fixture.ts";`,
  "/p/tests/helpers/board_processes.ts": `export const y = 2;`,
  "/p/tests/helpers/redis_cluster.ts": importing("./redis_server.ts"),
  "/p/tests/procs/scenario.ts": importing("../helpers/board_processes.ts"),
  "/p/tests/procs/d_test.ts": importing("../helpers/fixture.ts", "./scenario.ts"),
  "/p/tests/cluster/e_test.ts": importing("../helpers/redis_cluster.ts"),
};
const read = (path: string) => {
  if (!(path in files)) throw new Deno.errors.NotFound(path);
  return files[path];
};

Deno.test("classify() puts a file with no Redis or browser import in the fast group", () => {
  assert.equal(classify(["/p/tests/unit/a_test.ts"], read).get("/p/tests/unit/a_test.ts"), "fast");
});

Deno.test("classify() follows helpers to the redis-server they start", () => {
  assert.equal(classify(["/p/tests/http/b_test.ts"], read).get("/p/tests/http/b_test.ts"), "redis");
});

Deno.test("classify() puts a file that starts a PostgreSQL server in its own group, Redis or not", () => {
  assert.equal(
    classify(["/p/tests/store/d_test.ts"], read).get("/p/tests/store/d_test.ts"),
    "postgres",
  );
});

Deno.test("classify() puts a file that reaches playwright-core in e2e, even with Redis too", () => {
  assert.equal(classify(["/p/tests/e2e/c_test.ts"], read).get("/p/tests/e2e/c_test.ts"), "e2e");
});

Deno.test("longestFirst() starts the files that start board processes or a cluster first, the rest in order", () => {
  const files = [
    "/p/tests/http/b_test.ts",
    "/p/tests/cluster/e_test.ts",
    "/p/tests/unit/a_test.ts",
    "/p/tests/procs/d_test.ts",
  ];
  assert.deepEqual(longestFirst(files, read), [
    "/p/tests/cluster/e_test.ts",
    "/p/tests/procs/d_test.ts",
    "/p/tests/http/b_test.ts",
    "/p/tests/unit/a_test.ts",
  ]);
  const groups = classify(files, read);
  assert.equal(groups.get("/p/tests/procs/d_test.ts"), "redis");
  assert.equal(groups.get("/p/tests/cluster/e_test.ts"), "redis");
});

Deno.test("batchesOf() deals the files one to each batch in turn, so the longest first ones spread", () => {
  const files = ["long1", "long2", "long3", "a", "b", "c", "d"];
  assert.deepEqual(batchesOf(files, 3), [["long1", "a", "d"], ["long2", "b"], ["long3", "c"]]);
  assert.deepEqual(batchesOf(files, 7), [files]);
  assert.deepEqual(batchesOf([], 4), []);
  // Every file once, none past the batch size.
  const many = Array.from({ length: 139 }, (_, i) => `f${i}`);
  const batches = batchesOf(many, 12);
  assert.equal(batches.length, 12);
  assert.ok(batches.every((batch) => batch.length <= 12));
  assert.deepEqual(batches.flat().sort(), many.toSorted());
});

Deno.test("the test run type-checks what deno task check does, in one command: a cache hit", () => {
  const config = JSON.parse(Deno.readTextFileSync(new URL("../../deno.json", import.meta.url)));
  const checks = (config.tasks.check as string).split(" && ").filter((step) =>
    step.startsWith("deno check ")
  );
  assert.deepEqual(checks, [`deno check ${CHECK_ARGS.join(" ")}`]);
});

Deno.test("the one type check covers the JSDoc examples, so their own run need not check again", () => {
  assert.ok(CHECK_ARGS.includes("--doc"));
  for (const root of ["mod.ts", "source.ts", "src/"]) assert.ok(CHECK_ARGS.includes(root), root);
});

Deno.test("packagesNeeded() is the system packages a group's files start, through their helpers", () => {
  assert.deepEqual(packagesNeeded(["/p/tests/unit/a_test.ts"], read), []);
  assert.deepEqual(packagesNeeded(["/p/tests/unit/a_test.ts", "/p/tests/http/b_test.ts"], read), [
    "redis-server",
  ]);
  assert.deepEqual(packagesNeeded(["/p/tests/store/d_test.ts"], read), [
    "redis-server",
    "postgresql",
  ]);
  assert.deepEqual(packagesNeeded(["/p/tests/e2e/c_test.ts"], read), [
    "redis-server",
    "chromium-headless-shell",
    "fonts-liberation",
  ]);
});
