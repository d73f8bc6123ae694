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
 * command as `deno task check`'s, so after it a cache hit), runs the fast
 * group, then the redis, postgres and e2e groups and the JSDoc examples at the
 * same time (each group's output is printed whole when it ends), and fails
 * if any group fails. Checking once matters: `deno check` caches per set of
 * roots, so each group's `deno test` would check its own graph again, cold.
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
interface Needs {
  redis: boolean;
  postgres: boolean;
  browser: boolean;
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
 * The redis and postgres groups still run a file per isolate: batched, in a
 * clean-clone CI under load ~35, the redis group failed session, cluster and
 * takeover tests that pass alone, while the two batches holding the session tests
 * passed whole when run by themselves. Whether the load and the lanes beside them
 * or one file's state reaching the next is the cause is not settled; until it
 * is, they keep the two lanes they had (`--parallel`'s default on 2 cores).
 * The e2e group is batched: its harness keeps one browser connection and one
 * redis-server per isolate, empties the server before each test and serves
 * each file's boards on its own file's path (`tests/e2e/harness.ts`), and an
 * isolate of its costs about 1.4 s of CPU before its first test (`mod.ts`,
 * `playwright-core`, a redis-server), 53 times a file each.
 */
export interface GroupPlan {
  lanes: number;
  filesPerBatch: number;
}

/** Each group's plan (see {@link GroupPlan}). */
export const PLANS: Record<TestGroup, GroupPlan> = {
  fast: { lanes: 2, filesPerBatch: 12 },
  redis: { lanes: 2, filesPerBatch: 1 },
  postgres: { lanes: 2, filesPerBatch: 1 },
  e2e: { lanes: 2, filesPerBatch: 9 },
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

async function testFiles(dir: URL): Promise<string[]> {
  const files: string[] = [];
  const pending = [dir.pathname];
  while (pending.length > 0) {
    const current = pending.pop()!;
    for await (const entry of Deno.readDir(current)) {
      const path = `${current}/${entry.name}`.replaceAll("//", "/");
      if (entry.isDirectory && entry.name !== "bench" && entry.name !== "fixtures") {
        pending.push(path);
      } else if (entry.isFile && /_test\.ts$/.test(entry.name)) files.push(path);
    }
  }
  return files.sort();
}

/** A `deno test` run: whether it passed, and its output when it was captured. */
interface TestRun {
  success: boolean;
  output: string;
}

/**
 * How long one group may run, minutes (`TEST_GROUP_MINUTES`, default 20): a
 * hung test then fails its group, named, instead of holding CI until its
 * limit ends the run with nothing said (a hang once cost 80 minutes).
 */
const GROUP_LIMIT_MS = Number(Deno.env.get("TEST_GROUP_MINUTES") ?? 20) * 60_000;

async function denoTest(
  args: string[],
  capture = false,
  env: Record<string, string> = {},
): Promise<TestRun> {
  const mode = capture ? "piped" : "inherit";
  const child = new Deno.Command(Deno.execPath(), {
    args: ["test", "--allow-all", ...args],
    cwd: ROOT.pathname,
    stdout: mode,
    stderr: mode,
    // Captured output is read by people, not terminals.
    env: capture ? { ...env, NO_COLOR: "1" } : env,
  }).spawn();
  let timedOut = false;
  const limit = setTimeout(() => {
    timedOut = true;
    child.kill("SIGKILL");
  }, GROUP_LIMIT_MS);
  const outOfTime = () =>
    timedOut
      ? `\n== did not finish within ${GROUP_LIMIT_MS / 60_000} min: killed. The tests ` +
        "started above without an ok or FAILED after them were still running.\n"
      : "";
  try {
    if (!capture) {
      const { success } = await child.status;
      if (timedOut) console.error(outOfTime());
      return { success: success && !timedOut, output: "" };
    }
    // stderr goes after stdout: a failing test's details are read after its summary.
    const { success, stdout, stderr } = await child.output();
    const text = new TextDecoder();
    return {
      success: success && !timedOut,
      output: text.decode(stdout) + text.decode(stderr) + outOfTime(),
    };
  } finally {
    clearTimeout(limit);
  }
}

/**
 * What `deno task check` type-checks, in one `deno check`: the same roots
 * here make the run's check a cache hit after it (`deno check` caches per set
 * of roots), and one program checks `src/` once, where a check of the package
 * and then one of `tests/` checked it twice.
 */
export const CHECKED_ROOTS: readonly string[] = [
  "mod.ts",
  "source.ts",
  "src/",
  "scripts/",
  "ui/main.ts",
  "tests/",
];

/** Type-checks every test file and what it imports, as `deno task check` does. */
async function checkTests(): Promise<boolean> {
  const { success } = await new Deno.Command(Deno.execPath(), {
    args: ["check", ...CHECKED_ROOTS],
    cwd: ROOT.pathname,
  }).spawn().status;
  return success;
}

if (import.meta.main) {
  const [which = "all", ...rest] = Deno.args;
  // `deno task test:fast -- --filter x` hands the script the "--" too.
  const extra = rest[0] === "--" ? rest.slice(1) : rest;
  const files = await testFiles(new URL("tests/", ROOT));
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
  const group =
    (name: TestGroup) =>
    async (args: string[], capture?: boolean, env: Record<string, string> = {}) => {
      const files = of(name);
      // deno test given no module runs every test it finds.
      if (files.length === 0) return { success: true, output: "" };
      const { lanes, filesPerBatch } = PLANS[name];
      const dir = await Deno.makeTempDir({ prefix: `queue-board-${name}-` });
      try {
        const modules = await writeBatches(dir, name, batchesOf(files, filesPerBatch));
        return await denoTest(["--parallel", ...args, ...extra, ...modules], capture, {
          ...env,
          DENO_JOBS: String(lanes),
        });
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    };
  const runs: Record<string, (args: string[], capture?: boolean) => Promise<TestRun>> = {
    fast: group("fast"),
    redis: group("redis"),
    postgres: group("postgres"),
    // One Chromium for the group, each file with contexts of its own: a launch per file cost
    // about a second of CPU, 48 times. Imported here only: the other groups need no browser.
    e2e: async (args, capture) => {
      const { withBrowserServer } = await import("../tests/e2e/browser.ts");
      return await withBrowserServer((env) => group("e2e")(args, capture, env));
    },
    doc: (args, capture) =>
      denoTest(["--doc", ...args, ...extra, "mod.ts", "source.ts", "src/"], capture),
  };
  if (which !== "all" && !(which in runs)) {
    console.error(
      `usage: scripts/test.ts [all|fast|redis|postgres|e2e|doc|list] [deno test arguments]`,
    );
    Deno.exit(2);
  }
  if (which !== "all") Deno.exit((await runs[which]([])).success ? 0 : 1);

  console.log(`== deno check ${CHECKED_ROOTS.join(" ")}`);
  if (!await checkTests()) Deno.exit(1);
  const failed: string[] = [];
  console.log("\n== test:fast");
  if (!(await runs.fast(["--no-check"])).success) failed.push("fast");
  // The JSDoc examples are checked by their own run: `deno check` does not see them.
  const together = [
    ["redis", ["--no-check"]],
    ["postgres", ["--no-check"]],
    ["e2e", ["--no-check"]],
    ["doc", []],
  ] as const;
  console.log(`\n== ${together.map(([name]) => `test:${name}`).join(", ")} at the same time`);
  await Promise.all(together.map(async ([name, args]) => {
    const started = performance.now();
    const { success, output } = await runs[name]([...args], true);
    const took = Math.round((performance.now() - started) / 1000);
    console.log(`\n== test:${name} (${took} s)\n${output}`);
    if (!success) failed.push(name);
  }));
  if (failed.length > 0) {
    console.error(`\nfailed: ${failed.map((name) => `test:${name}`).join(", ")}`);
    Deno.exit(1);
  }
}
