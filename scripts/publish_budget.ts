/**
 * Checks what `deno publish` would ship: only the module's own code and the
 * built UI (never tests, scripts or the UI's sources, which nothing imports),
 * a LICENSE, and at most {@link BUDGET_BYTES} in all. CI runs it through
 * `deno task check`, so a stray folder or a bloated bundle fails the build
 * instead of landing on JSR.
 *
 * @example
 * ```sh
 * deno run --allow-run --allow-read scripts/publish_budget.ts
 * # published: 422 files, 2.79 MB (budget 3 MB)
 * ```
 *
 * @module
 */

/**
 * The most the published package may weigh, in bytes: what it weighs with
 * the alerts, the 1,000-task overview, the job diagnosis, the job
 * history's three stores, its reads and its charts (2.79 MB) plus room for
 * a feature, not for a stray folder or an unminified bundle.
 */
export const BUDGET_BYTES = 3 * 1024 * 1024;

const UNITS: Record<string, number> = { B: 1, KB: 1024, MB: 1024 * 1024 };

/** One file of the dry run's listing. */
export interface PublishedFile {
  path: string;
  bytes: number;
}

/** Reads the files and sizes out of `deno publish --dry-run`'s listing. */
export function parseDryRun(output: string, root: string): PublishedFile[] {
  const files: PublishedFile[] = [];
  for (const line of output.split("\n")) {
    const match = /file:\/\/(\S+) \(([\d.]+)(B|KB|MB)\)\s*$/.exec(line);
    if (!match) continue;
    const path = match[1].startsWith(root) ? match[1].slice(root.length) : match[1];
    files.push({ path, bytes: Number(match[2]) * UNITS[match[3]] });
  }
  return files;
}

/** What is wrong with a listing: files that must not ship, a missing LICENSE, the size. */
export function budgetProblems(files: PublishedFile[], budget = BUDGET_BYTES): string[] {
  const problems: string[] = [];
  for (const { path } of files) {
    const uiSource = path.startsWith("ui/") && !path.startsWith("ui/dist/");
    if (uiSource || /^(tests|scripts|\.ci)\//.test(path)) problems.push(`ships ${path}`);
  }
  if (!files.some(({ path }) => path === "LICENSE")) problems.push("ships no LICENSE");
  const total = files.reduce((sum, { bytes }) => sum + bytes, 0);
  if (total > budget) problems.push(`weighs ${megabytes(total)}, over ${megabytes(budget)}`);
  if (files.length === 0) problems.push("the dry run listed no files");
  return problems;
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(2)} MB`;
}

if (import.meta.main) {
  const root = new URL("../", import.meta.url).pathname;
  const { stdout, stderr, success } = await new Deno.Command(Deno.execPath(), {
    // The listing needs no type check: `deno task check` type-checks the package before this,
    // and the dry run's own check, a graph of its own and so never a cache hit, cost CI 50 s of CPU.
    args: ["publish", "--dry-run", "--allow-dirty", "--no-check"],
    cwd: root,
    env: { NO_COLOR: "1" },
  }).output();
  const output = new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr);
  if (!success) {
    console.error(output);
    Deno.exit(1);
  }
  const files = parseDryRun(output, root);
  const total = files.reduce((sum, { bytes }) => sum + bytes, 0);
  console.log(
    `published: ${files.length} files, ${megabytes(total)} (budget ${megabytes(BUDGET_BYTES)})`,
  );
  const problems = budgetProblems(files);
  for (const problem of problems) console.error(`publish budget: ${problem}`);
  if (problems.length > 0) Deno.exit(1);
}
