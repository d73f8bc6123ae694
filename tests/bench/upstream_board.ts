/**
 * The upstream dashboard, `@taskora/board` (packages/board of
 * github.com/kravetsone/taskora), made runnable under Deno for the
 * benchmarks without copying it into the project: its `src/` is extracted
 * at bench time from a git mirror of the taskora repository into a
 * temporary directory, beside a `deno.json` whose import map points
 * `taskora` at the real taskora 0.5.0 of `../shared/taskora/taskora.js` and
 * `hono` at the project's own npm version. Its sources import `./api.js`
 * for `./api.ts` (written for a bundler), which Deno resolves with
 * sloppy imports; it runs unbuilt (its UI is absent: only its API is
 * measured).
 *
 * The mirror is `$TASKORA_GIT_DIR`, else `/work/.mirror/kravetsone+taskora/repo`
 * (where the `fetch` tool puts github:kravetsone/taskora); `$TASKORA_REF`
 * picks a commit (default HEAD).
 *
 * @module
 */

/** The extracted board: what to run it with, and how to remove it. */
export interface UpstreamBoard {
  /** `src/index.ts` of the extracted board (exports `createBoard(app, options)`). */
  entry: string;
  /** The `deno.json` to run it with (`--config`). */
  config: string;
  /** The commit it was extracted from. */
  commit: string;
  remove(): Promise<void>;
}

const GIT_DIR = Deno.env.get("TASKORA_GIT_DIR") ?? "/work/.mirror/kravetsone+taskora/repo";
const REF = Deno.env.get("TASKORA_REF") ?? "HEAD";

async function git(...args: string[]): Promise<Uint8Array> {
  const { success, stdout, stderr } = await new Deno.Command("git", {
    args: ["--git-dir", GIT_DIR, ...args],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!success) {
    throw new Error(
      `git ${args.join(" ")} in ${GIT_DIR}: ${new TextDecoder().decode(stderr)}` +
        " (fetch github:kravetsone/taskora, or set TASKORA_GIT_DIR to a clone's .git)",
    );
  }
  return stdout;
}

/** The version the project's own import map gives `name` (`npm:hono@^4…`), so no other is fetched. */
function projectImport(name: string): string {
  const config = JSON.parse(
    Deno.readTextFileSync(new URL("../../deno.json", import.meta.url)),
  ) as { imports: Record<string, string> };
  const specifier = config.imports[name];
  if (!specifier) throw new Error(`the project's deno.json has no import for ${name}`);
  return specifier;
}

/** Extracts the upstream board's sources into a new temporary directory. */
export async function extractUpstreamBoard(): Promise<UpstreamBoard> {
  const commit = new TextDecoder().decode(await git("rev-parse", REF)).trim();
  const dir = await Deno.makeTempDir({ prefix: "upstream-board-" });
  const archive = await git("archive", "--format=tar", commit, "packages/board/src");
  const tar = new Deno.Command("tar", { args: ["-x", "-C", dir], stdin: "piped" }).spawn();
  const writer = tar.stdin.getWriter();
  await writer.write(archive);
  await writer.close();
  if (!(await tar.status).success) throw new Error(`tar could not extract the upstream board`);
  const taskora = new URL("../../../shared/taskora/taskora.js", import.meta.url).href;
  const config = `${dir}/deno.json`;
  await Deno.writeTextFile(
    config,
    JSON.stringify({
      imports: { taskora, hono: projectImport("hono"), "hono/": projectImport("hono/") },
      unstable: ["sloppy-imports"],
      lock: false,
    }),
  );
  return {
    entry: `${dir}/packages/board/src/index.ts`,
    config,
    commit,
    remove: () => Deno.remove(dir, { recursive: true }),
  };
}
