/**
 * Commands whose process dies with the test that started it: the servers
 * and board processes the helpers start (`redis_server.ts`,
 * `redis_cluster.ts`, `postgres_server.ts`, `board_processes.ts`). A test
 * group killed at its time limit (`scripts/test.ts` sends its `deno test`
 * SIGKILL) left every one of them running, each holding a port, memory and
 * a core's share, under the next run.
 *
 * Each is started through `setpriv --pdeathsig SIGKILL` (util-linux), which
 * asks the kernel to kill the program when the thread that started it ends,
 * whatever ends it, then execs the program in place: the pid a helper holds
 * and kills is the program's. A spawn is a synchronous op on the thread
 * running the test module, and that thread runs the module to its end, so
 * no server dies before the module that started it.
 *
 * @module
 */

/** Options of {@link boundCommand}: the command's, and the user to run it as. */
export interface BoundCommandOptions extends Deno.CommandOptions {
  /** Runs the program as this user (PostgreSQL refuses to run as root); default ours. */
  user?: { uid: number; gid: number } | null;
}

/**
 * A command that runs `program` with `options.args`, killed when the
 * calling thread ends (see the module's documentation).
 *
 * @example
 * ```ts ignore
 * // (needs redis-server on the PATH)
 * const child = boundCommand("redis-server", { args: ["--port", "6390"] }).spawn();
 * ```
 */
export function boundCommand(
  program: string,
  { user, args = [], ...options }: BoundCommandOptions = {},
): Deno.Command {
  // One setpriv for both: a change of user clears the death signal, so it is set after it.
  const as = user ? [`--reuid=${user.uid}`, `--regid=${user.gid}`, "--clear-groups"] : [];
  return new Deno.Command("setpriv", {
    ...options,
    args: [...as, "--pdeathsig", "SIGKILL", program, ...args],
  });
}
