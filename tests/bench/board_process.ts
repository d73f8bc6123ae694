/**
 * A board in a child process, for benchmarks that read its own RSS and CPU:
 * the script is run again with `--serve <redis url>` (and any arguments of
 * its own after them) and prints `{"port": n}` as its first line once it
 * listens.
 */

/** The running child and where it answers. */
export interface BoardProcess {
  child: Deno.ChildProcess;
  /** `http://127.0.0.1:<port>`. */
  base: string;
}

/** Runs `script --serve redisUrl ...scriptArgs` (with extra Deno flags) and waits for its port. */
export async function spawnBoardProcess(
  script: string | URL,
  redisUrl: string,
  denoFlags: string[] = [],
  scriptArgs: string[] = [],
): Promise<BoardProcess> {
  const path = typeof script === "string" ? script : script.pathname;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", ...denoFlags, path, "--serve", redisUrl, ...scriptArgs],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const { port } = JSON.parse((await lines.read()).value!.split("\n")[0]);
  lines.releaseLock();
  return { child, base: `http://127.0.0.1:${port}` };
}
