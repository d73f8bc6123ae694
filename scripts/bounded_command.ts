/**
 * Runs a command under a limit, in a process group of its own: one test
 * group's `deno test`, which starts redis-servers, PostgreSQL servers and
 * board processes of its own. Killing only `deno test` at the limit left
 * them running (orphans holding ports and CPU for the rest of the run), so
 * the whole group is killed, at the limit and after the command ends (a test
 * that left its server behind). An interrupt or a `timeout` of the caller
 * kills the groups running too: theirs is not the caller's process group,
 * so the terminal's and `timeout`'s signals no longer reach them.
 *
 * @module
 */

/** What a bounded run gave. */
export interface BoundedRun {
  success: boolean;
  /** stdout then stderr, when captured (a failing test's details are read after its summary). */
  output: string;
  /** Whether the limit ended it. */
  timedOut: boolean;
}

/** Options of {@link runBounded}. */
export interface BoundedOptions {
  cwd?: string;
  env?: Record<string, string>;
  /** Capture the output rather than let it through. */
  capture?: boolean;
  /** Ends the run when it aborts (`AbortSignal.timeout(ms)` for a time limit). */
  limit: AbortSignal;
}

/** Kills every process of the group `pgid` leads; an empty group is not an error. */
function killGroup(pgid: number): void {
  try {
    Deno.kill(-pgid, "SIGKILL");
  } catch {
    // Nothing left in it.
  }
}

/**
 * How long a command interrupted at its limit has to end before its group is
 * killed: `deno test` answers an interrupt by naming the tests still running
 * ("The following tests were pending") and exiting, where, run with
 * `--parallel`, it prints a test only when the test ends, so a group killed
 * outright left no trace of the test that hung.
 */
const INTERRUPT_GRACE_MS = 5_000;

/** Asks the command itself (not its group) to stop; one that has ended is not an error. */
function interrupt(pid: number): void {
  try {
    Deno.kill(pid, "SIGINT");
  } catch {
    // It has ended.
  }
}

/** The groups running now, killed when this process is told to stop. */
const running = new Set<number>();
const STOPS = ["SIGINT", "SIGTERM"] as const;

function stopAll(signal: (typeof STOPS)[number]): void {
  for (const pgid of running) killGroup(pgid);
  Deno.exit(signal === "SIGINT" ? 130 : 143);
}
const stops = STOPS.map((signal) => [signal, () => stopAll(signal)] as const);

function track(pgid: number): void {
  if (running.size === 0) {
    for (const [signal, stop] of stops) {
      Deno.addSignalListener(signal, stop);
    }
  }
  running.add(pgid);
}

function untrack(pgid: number): void {
  running.delete(pgid);
  if (running.size === 0) {
    for (const [signal, stop] of stops) Deno.removeSignalListener(signal, stop);
  }
}

/**
 * Runs `program` with `args` as the leader of a new process group until it
 * exits or `limit` aborts (then it is interrupted, and killed after
 * {@link INTERRUPT_GRACE_MS}); then everything left in the group is killed.
 */
export async function runBounded(
  program: string,
  args: string[],
  { cwd, env = {}, capture = false, limit }: BoundedOptions,
): Promise<BoundedRun> {
  const mode = capture ? "piped" : "inherit";
  const child = new Deno.Command(program, {
    args,
    cwd,
    env,
    stdout: mode,
    stderr: mode,
    detached: true, // a session and process group of its own, led by the child
  }).spawn();
  track(child.pid);
  let timedOut = false;
  let grace: ReturnType<typeof setTimeout> | undefined;
  const kill = () => {
    timedOut = true;
    interrupt(child.pid);
    grace = setTimeout(() => killGroup(child.pid), INTERRUPT_GRACE_MS);
  };
  limit.addEventListener("abort", kill, { once: true });
  // Read while it runs (a full pipe would stop it); a process left in the group may hold the
  // pipes open, so they are read to their end only once the group is killed.
  const output = capture
    ? Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text()])
    : Promise.resolve(["", ""]);
  try {
    const { success } = await child.status;
    killGroup(child.pid);
    const [stdout, stderr] = await output;
    return { success: success && !timedOut, output: stdout + stderr, timedOut };
  } finally {
    clearTimeout(grace);
    limit.removeEventListener("abort", kill);
    untrack(child.pid);
  }
}
