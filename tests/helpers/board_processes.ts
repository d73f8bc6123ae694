/**
 * Board processes for the multi-process tests: N children (the CLI, or a
 * script that embeds a board in a taskora App), each on a free loopback
 * port, ready once `GET {basePath}/api/config` answers, stopped by pid,
 * and killed with the test's process if that goes first (`bound_command.ts`).
 *
 * @module
 */

import { boundCommand } from "./bound_command.ts";
import { waitFor } from "./wait_for.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const CLI = new URL("../../src/cli.ts", import.meta.url).pathname;

/** The flags `deno task start` runs the CLI with. */
export const CLI_PERMISSIONS = ["--allow-net", "--allow-env", "--allow-read"];

/**
 * The CLI's `--lease` for the tests that kill a board: another takes its work
 * over within 3 s rather than the default 10 (a period, not a wait: the tests
 * wait for the takeover itself).
 */
export const SHORT_LEASE = ["--lease", "3s"];

/** One running board process. */
export interface BoardProcess {
  pid: number;
  port: number;
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  /** Whether it has exited (killed or crashed). */
  exited(): boolean;
  /** Kills it with SIGKILL (`kill -9`) and waits for it to be gone. */
  kill(): Promise<void>;
  /** What it wrote to stdout (the last 8 KB): the CLI's start line. */
  stdout(): string;
  /** What it wrote to stderr (the last 8 KB), for a failing test's message. */
  stderr(): string;
}

/** What to start and how. */
export interface BoardProcessesOptions {
  /** How many processes. */
  count: number;
  /**
   * Deno arguments after `deno run`, given the port to listen on; default the
   * CLI with {@link CLI_PERMISSIONS} and `--port`, plus {@link cliArgs}.
   */
  args?: (port: number) => string[];
  /** Extra CLI arguments (`--redis <url>`), when `args` is not given. */
  cliArgs?: string[];
  /** Environment of every process (the CLI's `REDIS_URL`, `BOARD_*` login variables). */
  env?: Record<string, string>;
  /** Where the board answers (default `/board`). */
  basePath?: string;
}

/** The processes, and one way to stop them all. */
export interface BoardProcesses {
  boards: BoardProcess[];
  /** Kills every process still running (by pid) and waits for them. */
  stop(): Promise<void>;
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/** Keeps the tail of a stream, reading it to the end so the child never blocks on a full pipe. */
function tailOf(stream: ReadableStream<Uint8Array<ArrayBuffer>>, keep = 8192): () => string {
  let text = "";
  (async () => {
    for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
      text = (text + chunk).slice(-keep);
    }
  })().catch(() => {});
  return () => text;
}

/** A spawned child, and a promise that rejects if it exits before it answers. */
function spawn(args: string[], env: Record<string, string>, port: number) {
  const child = boundCommand(Deno.execPath(), {
    args: ["run", ...args],
    cwd: ROOT,
    env,
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let gone = false;
  const status = child.status.finally(() => gone = true);
  const stdout = tailOf(child.stdout);
  const stderr = tailOf(child.stderr);
  const board: BoardProcess = {
    pid: child.pid,
    port,
    origin: `http://127.0.0.1:${port}`,
    exited: () => gone,
    kill: async () => {
      if (!gone) Deno.kill(child.pid, "SIGKILL");
      await status;
    },
    stdout,
    stderr,
  };
  const died = status.then(({ code }) => {
    throw new Error(`board process ${child.pid} exited (${code}) before answering: ${stderr()}`);
  });
  return { board, died };
}

/** Starts one process and waits until it answers; another port if its own was taken first. */
async function startOne(
  argsOf: (port: number) => string[],
  env: Record<string, string>,
  basePath: string,
  started: BoardProcess[],
): Promise<void> {
  for (let attempt = 1;; attempt++) {
    const port = freePort();
    const { board, died } = spawn(argsOf(port), env, port);
    started.push(board);
    try {
      await Promise.race([died, answers(board, basePath)]);
      return;
    } catch (error) {
      // Test files run in parallel: another one may bind the port picked free here first.
      if (attempt === 3 || !/cannot listen/.test(board.stderr())) throw error;
    }
  }
}

/** Resolves once the board answers `GET {basePath}/api/config` (200, or 401 under login). */
function answers(board: BoardProcess, basePath: string): Promise<unknown> {
  return waitFor(async () => {
    const response = await fetch(`${board.origin}${basePath}/api/config`);
    await response.body?.cancel();
    return response.status === 200 || response.status === 401;
  }, { what: `board process ${board.pid} to answer on port ${board.port}`, limitMs: 60_000 });
}

/**
 * Starts `count` board processes and waits until each answers.
 *
 * @example
 * ```ts ignore
 * // (needs a redis-server: see startRedis)
 * const { boards, stop } = await startBoardProcesses({ count: 3, cliArgs: ["--redis", url] });
 * Deno.test.afterAll(stop);
 * ```
 */
export async function startBoardProcesses(
  { count, args, cliArgs = [], env = {}, basePath = "/board" }: BoardProcessesOptions,
): Promise<BoardProcesses> {
  const argsOf = args ??
    ((port: number) => [...CLI_PERMISSIONS, CLI, "--port", String(port), ...cliArgs]);
  // REDIS_URL and the login variables of the test's own environment must not leak in.
  const childEnv = { REDIS_URL: "", REDIS_CLUSTER: "", REDIS_SENTINEL: "", ...env };
  const started: BoardProcess[] = [];
  const stop = async () => {
    await Promise.all(started.map((board) => board.kill()));
  };
  try {
    await Promise.all(
      Array.from({ length: count }, () => startOne(argsOf, childEnv, basePath, started)),
    );
  } catch (error) {
    await stop();
    throw error;
  }
  const boards = started.filter((board) => !board.exited());
  return { boards, stop };
}
