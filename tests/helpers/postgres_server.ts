/**
 * A throwaway PostgreSQL server for tests, as `redis_server.ts` starts a
 * redis-server: Debian's binaries (`/usr/lib/postgresql/<n>/bin`), a data
 * directory of its own in a temporary folder, a free port on 127.0.0.1
 * only, its socket in that folder, and no durability (`fsync=off`): fast,
 * and gone when stopped. It is stopped by its pid; `stop({ keepData: true })`
 * then `start()` brings the same data back on the same port, as a server
 * that went away and came back.
 *
 * PostgreSQL refuses to run as root: under root (CI) the server runs as the
 * `postgres` user the package creates. Either way it is started through
 * `setpriv` (`bound_command.ts`), which execs in place, so the pid we hold is
 * the server's, and it is killed with the test's process if that goes first
 * (its backends end with it).
 *
 * @module
 */

import { boundCommand } from "./bound_command.ts";
import { waitFor } from "./wait_for.ts";

/** A running test server. */
export interface TestPostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  url: string;
  port: number;
  /** Stops the server (SIGINT, a fast shutdown, by its pid); without `keepData`, its data is gone. */
  stop(options?: { keepData?: boolean }): Promise<void>;
  /** Starts a stopped server again on the same port (a no-op while it runs). */
  start(): Promise<void>;
}

/** The folder of Debian's PostgreSQL binaries, the newest installed. */
function binaries(): string {
  const versions = [...Deno.readDirSync("/usr/lib/postgresql")]
    .map((entry) => entry.name)
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(b) - Number(a));
  if (versions.length === 0) {
    throw new Error("PostgreSQL is not installed (apt-get install -y postgresql)");
  }
  return `/usr/lib/postgresql/${versions[0]}/bin`;
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/** The uid and gid of the `postgres` user, when we are root and must run as it. */
async function runAs(): Promise<{ uid: number; gid: number } | null> {
  if (Deno.uid() !== 0) return null;
  const id = (args: string[]) =>
    new Deno.Command("id", { args: [...args, "postgres"] }).output()
      .then(({ stdout }) => Number(new TextDecoder().decode(stdout).trim()));
  return { uid: await id(["-u"]), gid: await id(["-g"]) };
}

/**
 * A command, as the `postgres` user when we are root, killed with the test's
 * process. `stderr` is piped only for a command that ends (initdb): a
 * server's log would fill an unread pipe and stop it.
 */
function command(
  user: { uid: number; gid: number } | null,
  program: string,
  args: string[],
  stderr: "piped" | "null",
): Deno.Command {
  return boundCommand(program, { user, args, stdout: "null", stderr });
}

/** Whether the server on `port` takes a connection (`pg_isready`). */
async function isReady(bin: string, port: number): Promise<boolean> {
  const { code } = await new Deno.Command(`${bin}/pg_isready`, {
    args: ["-h", "127.0.0.1", "-p", String(port), "-q"],
  }).output();
  return code === 0;
}

/** Creates a data directory and starts a server on a free port; resolves once it takes connections. */
export async function startPostgres(): Promise<TestPostgres> {
  const bin = binaries();
  const user = await runAs();
  const dir = await Deno.makeTempDir({ prefix: "queue-board-postgres-" });
  if (user) await Deno.chown(dir, user.uid, user.gid);
  const data = `${dir}/data`;
  const init = await command(user, `${bin}/initdb`, [
    "-D",
    data,
    "-U",
    "postgres",
    "--auth=trust",
    "-E",
    "UTF8",
    "--no-sync",
    "--no-instructions",
  ], "piped").output();
  if (!init.success) throw new Error(`initdb failed: ${new TextDecoder().decode(init.stderr)}`);

  let port = freePort();
  let child: Deno.ChildProcess | null = null;
  const start = async () => {
    if (child) return;
    child = command(user, `${bin}/postgres`, [
      "-D",
      data,
      "-p",
      String(port),
      "-k",
      dir,
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      "fsync=off",
      "-c",
      "synchronous_commit=off",
      "-c",
      "full_page_writes=off",
      "-c",
      "max_connections=20",
      "-c",
      "shared_buffers=16MB",
    ], "null").spawn();
    const running = child;
    let exited = false;
    running.status.then(() => exited = true);
    // An exit ends the wait at once (a condition that threw would be looked at again).
    const outcome = await waitFor(
      async () => exited ? "exited" : await isReady(bin, port) && "ready",
      { what: `postgres on port ${port} to take connections` },
    );
    if (outcome === "exited") {
      throw new Error(`postgres exited before it took connections on port ${port}`);
    }
  };
  const stop = async ({ keepData = false }: { keepData?: boolean } = {}) => {
    if (child) {
      const running = child;
      child = null;
      try {
        running.kill("SIGINT");
      } catch {
        // already gone
      }
      await running.status;
    }
    if (!keepData) await Deno.remove(dir, { recursive: true }).catch(() => {});
  };
  // Test files run in parallel: another may bind the port picked free here
  // first, and postgres then exits at once. A restart keeps the port it got.
  for (let attempt = 1;; attempt++) {
    try {
      await start();
      break;
    } catch (error) {
      await stop({ keepData: true });
      if (attempt === 3) {
        await stop();
        throw error;
      }
      port = freePort();
    }
  }
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, port, stop, start };
}
