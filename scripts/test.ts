/**
 * Runs the test suite by what each test file needs, read from its imports
 * (each group's files in parallel): `fast` files need neither a redis-server
 * nor a browser;
 * `redis` files start a throwaway redis-server (through
 * `tests/helpers/redis_server.ts`, directly or through another helper);
 * `postgres` files start a throwaway PostgreSQL server (through
 * `tests/helpers/postgres_server.ts`; the job history's store), with or
 * without a redis-server;
 * `e2e` files drive Chromium (`playwright-core`). A new test file lands in
 * its group by what it imports, so no list is kept by hand.
 *
 * `all` (what `deno task test` runs) type-checks `tests/` once (the same
 * command as `deno task check`'s, so the one run second is a cache hit) and
 * runs every group and the JSDoc examples beside it, all at the same time
 * ({@link ALL_AT_ONCE}; each part's output is printed whole when it ends, and
 * each failed part's summary after the last, `scripts/run_report.ts`), and
 * fails if any part fails. Checking once matters: `deno check` caches per set
 * of roots, so each group's `deno test` would check its own graph again, cold.
 *
 * @example
 * ```sh
 * deno task test:fast   # unit, memory source, memory-backed HTTP
 * deno run --allow-all scripts/test.ts list   # each file and its group, in run order
 * deno task test -- --filter "retry"   # extra arguments go to every deno test
 * ```
 *
 * @module
 */

import { type BoundedRun, runBounded } from "./bounded_command.ts";
import { exampleModule, examplesIn } from "./doc_examples.ts";
import { type Package, packagesFor, packagesMissing, type ServerNeeds } from "./prerequisites.ts";
import type { Part } from "./run_at_once.ts";
import { runAndReport } from "./run_report.ts";

/** What a test file needs to run. */
export type TestGroup = "fast" | "redis" | "postgres" | "e2e";

const ROOT = new URL("../", import.meta.url);
const LOCAL_IMPORT = /(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g;
const NEEDS_REDIS = /tests\/helpers\/redis_server\.ts$/;
const NEEDS_POSTGRES = /tests\/helpers\/postgres_server\.ts$/;
const NEEDS_BROWSER = /"(?:npm:)?playwright-core"/;
/** Helpers that start board processes or a set of servers (a cluster, a sentinel set). */
const STARTS_MANY = /tests\/helpers\/(?:board_processes|redis_cluster)\.ts$/;

/** The local files a module imports (relative specifiers only), as absolute paths. */
function localImports(path: string, text: string): string[] {
  const base = new URL(`file://${path}`);
  return [...text.matchAll(LOCAL_IMPORT)].map((match) => new URL(match[1], base).pathname);
}

/** What a test file reaches through its local imports. */
interface Needs extends ServerNeeds {
  /** Board processes or a set of servers: the longest files of their group. */
  many: boolean;
}

/** Walks each test file's local imports (those under `tests/`) for what it needs. */
function needsOf(
  files: readonly string[],
  read: (path: string) => string,
): Map<string, Needs> {
  const needs = new Map<string, Needs>();
  function walk(path: string, seen: Set<string>): Needs {
    const known = needs.get(path);
    if (known) return known;
    const found = {
      redis: NEEDS_REDIS.test(path),
      postgres: NEEDS_POSTGRES.test(path),
      browser: false,
      many: STARTS_MANY.test(path),
    };
    if (seen.has(path)) return found;
    seen.add(path);
    let text = "";
    try {
      text = read(path);
    } catch {
      return found; // a generated or missing file: the type check reports it
    }
    found.browser = NEEDS_BROWSER.test(text);
    for (const imported of localImports(path, text)) {
      if (!imported.includes("/tests/")) continue;
      const sub = walk(imported, seen);
      found.redis ||= sub.redis;
      found.postgres ||= sub.postgres;
      found.browser ||= sub.browser;
      found.many ||= sub.many;
    }
    needs.set(path, found);
    return found;
  }
  return new Map(files.map((file) => [file, walk(file, new Set())]));
}

/**
 * Classifies each test file by walking its local imports: a browser need wins
 * over a PostgreSQL need, that over a Redis need, and any over none.
 */
export function classify(
  files: readonly string[],
  read: (path: string) => string,
): Map<string, TestGroup> {
  const groups = new Map<string, TestGroup>();
  for (const [file, { redis, postgres, browser }] of needsOf(files, read)) {
    groups.set(file, browser ? "e2e" : postgres ? "postgres" : redis ? "redis" : "fast");
  }
  return groups;
}

/** The system packages the tests of `files` need, by what they import (`scripts/prerequisites.ts`). */
export function packagesNeeded(
  files: readonly string[],
  read: (path: string) => string,
): Package[] {
  return packagesFor([...needsOf(files, read).values()]);
}

/**
 * `files` in the order `deno test --parallel` should start them (it starts
 * them in the order given): those that start board processes or a set of
 * servers first, the rest in their order. Those are a group's longest files
 * (each process test 25–37 s in a CI run, where the redis group's median file
 * took under 1 s); started last, as their names sort, they ran alone at the
 * group's end, on one core each at best, while the other group waited.
 */
export function longestFirst(
  files: readonly string[],
  read: (path: string) => string,
): string[] {
  const needs = needsOf(files, read);
  return files.toSorted((a, b) => Number(needs.get(b)!.many) - Number(needs.get(a)!.many));
}

/**
 * How a group runs: `lanes` batches at a time (`deno test --parallel` with
 * `DENO_JOBS`), each batch one module importing about `filesPerBatch` of the
 * group's files, so they share one isolate and load what they import once.
 * A file's own isolate cost about 0.6 s of CPU for `mod.ts` alone (0.5 s more
 * for `playwright-core`): the fast group's 139 files took 120 s of CPU one
 * isolate each, 50 s in two batches. Tests of a batch run one after another;
 * the lanes are what runs at once.
 *
 * The redis group runs batched too, two lanes: deno test runs without its op
 * sanitizer (Deno 2.9), so what a file leaves running goes on beside the
 * next files of its batch (a taskora App's ioredis client reconnecting to the
 * server its file stopped: schedule_all_runs_test, app_contract_test,
 * workers_test), and under load a board's 2 s command timeout fires, alone
 * or batched (reader_cost_test and metrics_scaling_cost_test failed alone at
 * load ~25). Batched at 3 and 4 lanes under load ~35, the group failed
 * session, cluster and takeover tests; at 8 files a batch and 2 lanes under
 * load 30-38 it passed but for reader_cost_test, failing alone too (238 s of
 * CPU, against about 320 s one file per isolate on the same machine).
 * The postgres group runs a file per isolate.
 * The e2e group is batched: its harness keeps one browser connection and one
 * redis-server per isolate, empties the server before each test and serves
 * each file's boards on its own file's path (`tests/e2e/harness.ts`), and an
 * isolate of its costs about 1.4 s of CPU before its first test (`mod.ts`,
 * `playwright-core`, a redis-server), 53 times a file each.
 * The JSDoc examples run batched too, each example a module of its own
 * (`scripts/doc_examples.ts`).
 */
export interface GroupPlan {
  lanes: number;
  filesPerBatch: number;
}

/** Each group's plan (see {@link GroupPlan}). */
export const PLANS: Record<TestGroup | "doc", GroupPlan> = {
  fast: { lanes: 2, filesPerBatch: 12 },
  redis: { lanes: 2, filesPerBatch: 8 },
  postgres: { lanes: 2, filesPerBatch: 1 },
  e2e: { lanes: 2, filesPerBatch: 9 },
  doc: { lanes: 2, filesPerBatch: 64 },
};

/**
 * `files` (in run order) dealt into batches of at most `filesPerBatch`, one
 * file to each batch in turn: the longest files, first in the order, go one
 * to a batch rather than all into the first, so the batches end close
 * together instead of one holding the group's tail.
 */
export function batchesOf(files: readonly string[], filesPerBatch: number): string[][] {
  const count = Math.ceil(files.length / filesPerBatch);
  const batches: string[][] = Array.from({ length: count }, () => []);
  files.forEach((file, index) => batches[index % count].push(file));
  return batches;
}

/**
 * Writes one module per batch into `dir`, each importing its files in order
 * (the tests then run in that order), and returns the modules' paths.
 */
async function writeBatches(dir: string, name: string, batches: string[][]): Promise<string[]> {
  return await Promise.all(batches.map(async (files, index) => {
    const path = `${dir}/${name}_${String(index).padStart(2, "0")}_test.ts`;
    const imports = files.map((file) => `import "${new URL(`file://${file}`).href}";\n`);
    await Deno.writeTextFile(path, imports.join(""));
    return path;
  }));
}

/** The files under `dir` whose names match `name`, sorted, but for those under `skipped` folders. */
async function filesUnder(
  dir: URL,
  name: RegExp,
  skipped: readonly string[] = [],
): Promise<string[]> {
  const files: string[] = [];
  const pending = [dir.pathname];
  while (pending.length > 0) {
    const current = pending.pop()!;
    for await (const entry of Deno.readDir(current)) {
      const path = `${current}/${entry.name}`.replaceAll("//", "/");
      if (entry.isDirectory && !skipped.includes(entry.name)) pending.push(path);
      else if (entry.isFile && name.test(entry.name)) files.push(path);
    }
  }
  return files.sort();
}

/** Where `deno test --doc` looked for the examples it runs (`scripts/` and `tests/` are only checked). */
const DOC_ROOTS = ["mod.ts", "source.ts", "src/"];

/** Writes each JSDoc example of {@link DOC_ROOTS} as a module into `dir` and returns their paths. */
async function writeExamples(dir: string): Promise<string[]> {
  const sources = DOC_ROOTS.filter((root) => !root.endsWith("/")).map((root) =>
    `${ROOT.pathname}${root}`
  );
  for (const root of DOC_ROOTS.filter((root) => root.endsWith("/"))) {
    sources.push(...await filesUnder(new URL(root, ROOT), /\.ts$/));
  }
  const modules: string[] = [];
  for (const path of sources) {
    const text = await Deno.readTextFile(path);
    const file = new URL(`file://${path}`);
    for (const example of examplesIn(file, path.slice(ROOT.pathname.length), text)) {
      const module = `${dir}/example_${String(modules.length).padStart(3, "0")}.ts`;
      await Deno.writeTextFile(module, exampleModule(example, text));
      modules.push(module);
    }
  }
  return modules;
}

/** What `all` runs at the same time: the type check and each group's tests. */
export type RunPart = "check" | TestGroup | "doc";

/**
 * How long each part of the run may take, minutes, when `TEST_GROUP_MINUTES`
 * does not say (it sets every part's limit, for a slower machine): past it
 * the part's `deno` and every process it started are killed and the part
 * fails, naming the tests that had started and not ended, instead of a hang
 * holding CI until its outer limit ends the run with nothing said (a hang
 * once cost 80 minutes). Well above each part's time in a clean-clone CI run
 * on the project's 2-core machine with every part side by side, and under
 * load: at load 25-38 the redis group took 14 min 21 s batched, and one file
 * per isolate did not end within 15. All at once at load 25-49 (a median of
 * 30), the type check took 9 min 22 s and the fast group was killed at 8 min
 * with 790 of its 973 tests passed: the parts run side by side, so a short
 * part's short limit bounds nothing the longest one does not.
 */
export const GROUP_MINUTES: Record<RunPart, number> = {
  check: 20,
  fast: 20,
  redis: 25,
  postgres: 10,
  e2e: 25,
  doc: 12,
};

/** How the output names a part: the command, for the type check. */
function partName(part: RunPart): string {
  return part === "check" ? `deno check ${CHECK_ARGS.join(" ")}` : `test:${part}`;
}

function limitMinutes(part: RunPart): number {
  return Number(Deno.env.get("TEST_GROUP_MINUTES") ?? GROUP_MINUTES[part]);
}

/** How a part's `deno` runs: its output captured or not, its environment, and what stops it early. */
interface DenoRun {
  capture?: boolean;
  env?: Record<string, string>;
  /** Aborts when the run ends early (the type check failed): the part then ends, failed. */
  stop?: AbortSignal;
}

/** Runs `deno <args>` for `part`, bounded by the part's limit, and says why when it was cut short. */
async function denoRun(
  part: RunPart,
  args: string[],
  { capture = false, env = {}, stop }: DenoRun = {},
): Promise<BoundedRun> {
  const minutes = limitMinutes(part);
  const timeout = AbortSignal.timeout(minutes * 60_000);
  const run = await runBounded(Deno.execPath(), args, {
    cwd: ROOT.pathname,
    // Captured output is read by people, not terminals.
    env: capture ? { ...env, NO_COLOR: "1" } : env,
    capture,
    limit: stop ? AbortSignal.any([timeout, stop]) : timeout,
  });
  if (!run.timedOut) return run;
  const killed = timeout.aborted
    ? `\n== ${
      partName(part)
    } did not finish within ${minutes} min: interrupted, then killed with every process it ` +
      "started. The tests deno test named pending above were still running.\n"
    : `\n== ${partName(part)} stopped, with every process it started: the type check failed.\n`;
  if (!capture) console.error(killed);
  return { ...run, output: run.output + (capture ? killed : "") };
}

/**
 * Runs `part` with `start` once `packages` are installed, or fails it naming
 * those that are not. While CI installs them (`TEST_INSTALLING`, see
 * `scripts/prerequisites.ts`) the part waits, and its output says how long.
 */
async function onceInstalled(
  part: RunPart,
  packages: readonly Package[],
  { capture = false, stop = new AbortController().signal }: DenoRun,
  start: () => Promise<BoundedRun>,
): Promise<BoundedRun> {
  const began = performance.now();
  let waited = false;
  const missing = await packagesMissing(packages, {
    installing: Deno.env.get("TEST_INSTALLING"),
    waiting: () => waited = true,
    stop,
  });
  const say = (text: string) => capture ? text : (console.error(text), "");
  if (stop.aborted) {
    return {
      success: false,
      timedOut: true,
      output: say(`${partName(part)} stopped before it began\n`),
    };
  }
  if (missing.length > 0) {
    const output = say(
      `${partName(part)} needs ${missing.join(", ")}, which is not installed ` +
        `(apt-get install ${missing.join(" ")})\n`,
    );
    return { success: false, timedOut: false, output };
  }
  const seconds = Math.round((performance.now() - began) / 1000);
  const note = waited
    ? say(`== waited ${seconds} s for ${packages.join(", ")} to be installed\n`)
    : "";
  const run = await start();
  return { ...run, output: note + run.output };
}

/**
 * What `deno task check` type-checks, in one `deno check`: the same
 * arguments here make the run's check a cache hit after it (`deno check`
 * caches per set of roots), and one program checks `src/` once, where a check
 * of the package and then one of `tests/` checked it twice. `--doc` checks the
 * JSDoc examples in the same program, so the examples' own run skips its
 * check of `src/` and them (43 s of CPU with it, 29 s without).
 */
export const CHECK_ARGS: readonly string[] = [
  "--doc",
  "mod.ts",
  "source.ts",
  "src/",
  "scripts/",
  "ui/main.ts",
  "tests/",
];

/**
 * What `all` runs, all at once, in the order it starts them (the longest
 * first). Every group runs with `--no-check` beside the one type check of
 * everything it runs ({@link CHECK_ARGS}), and a type error stops the groups
 * still running (`scripts/run_at_once.ts`). The redis and e2e groups hold the
 * run's critical path (each about 6-7 minutes in a clean-clone CI run, the
 * redis group mostly waiting: 238 s of CPU in 531 s); started after the check
 * and the fast group, they waited 1.5-2 minutes for them, with one core idle
 * for most of it (tsc runs on one thread).
 */
export const ALL_AT_ONCE: readonly RunPart[] = ["redis", "e2e", "postgres", "check", "doc", "fast"];

if (import.meta.main) {
  const [which = "all", ...rest] = Deno.args;
  // `deno task test:fast -- --filter x` hands the script the "--" too.
  const extra = rest[0] === "--" ? rest.slice(1) : rest;
  const files = await filesUnder(new URL("tests/", ROOT), /_test\.ts$/, ["bench", "fixtures"]);
  const read = (path: string) => Deno.readTextFileSync(path);
  const groups = classify(files, read);
  const order = longestFirst(files, read);
  const of = (group: TestGroup) => order.filter((file) => groups.get(file) === group);
  if (which === "list") {
    for (const file of order) {
      console.log(`${groups.get(file)}\t${file.slice(ROOT.pathname.length)}`);
    }
    Deno.exit(0);
  }
  /** Runs `files` in `name`'s batches and lanes ({@link PLANS}). */
  const batched = async (
    name: TestGroup | "doc",
    files: string[],
    args: string[],
    run: DenoRun,
  ) => {
    // deno test given no module runs every test it finds.
    if (files.length === 0) return { success: true, output: "", timedOut: false };
    const { lanes, filesPerBatch } = PLANS[name];
    const dir = await Deno.makeTempDir({ prefix: `queue-board-${name}-batches-` });
    try {
      const modules = await writeBatches(dir, name, batchesOf(files, filesPerBatch));
      return await denoRun(name, [
        "test",
        "--allow-all",
        "--parallel",
        ...args,
        ...extra,
        ...modules,
      ], {
        ...run,
        env: { ...run.env, DENO_JOBS: String(lanes) },
      });
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  };
  const group = (name: TestGroup) => (args: string[], run: DenoRun) =>
    batched(name, of(name), args, run);
  const runs: Record<RunPart, (args: string[], run: DenoRun) => Promise<BoundedRun>> = {
    check: (_, run) => denoRun("check", ["check", ...CHECK_ARGS], run),
    fast: group("fast"),
    redis: group("redis"),
    postgres: group("postgres"),
    // One Chromium for the group, each file with contexts of its own: a launch per file cost
    // about a second of CPU, 48 times. Imported here only: the other groups need no browser.
    e2e: async (args, run) => {
      const { withBrowserServer } = await import("../tests/e2e/browser.ts");
      return await withBrowserServer((env) => group("e2e")(args, { ...run, env }));
    },
    doc: async (args, run) => {
      const dir = await Deno.makeTempDir({ prefix: "queue-board-doc-examples-" });
      try {
        // Their types are the type check's (`deno check --doc`, as Deno extracts them): checked
        // here, the modules (new paths each run) would cost a cold check of their own each time.
        return await batched("doc", await writeExamples(dir), ["--no-check", ...args], run);
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    },
  };
  if (which !== "all" && !(which in runs)) {
    console.error(
      `usage: scripts/test.ts [all|check|fast|redis|postgres|e2e|doc|list] [deno test arguments]`,
    );
    Deno.exit(2);
  }
  /** Runs `part` once what its tests need is installed (the type check and the examples need none). */
  const run = (part: RunPart, args: string[], how: DenoRun) => {
    const packages = part === "check" || part === "doc" ? [] : packagesNeeded(of(part), read);
    return onceInstalled(part, packages, how, () => runs[part](args, how));
  };
  if (which !== "all") Deno.exit((await run(which as RunPart, [], {})).success ? 0 : 1);

  console.log(`== ${ALL_AT_ONCE.map(partName).join(", ")}: at the same time`);
  const parts = {} as Record<RunPart, Part>;
  for (const part of ALL_AT_ONCE) {
    parts[part] = (stop) => run(part, ["--no-check"], { capture: true, stop });
  }

  if ((await runAndReport(parts, partName)).length > 0) Deno.exit(1);
}
