/**
 * A throwaway redis-server for tests: on a free port of 127.0.0.1, with no
 * persistence, stopped (and restartable on the same port) by the test, and
 * killed with the test's process if that goes first (`bound_command.ts`). Its
 * working directory is a temporary one of its own, so a `SAVE` (which
 * `stop({ keepData: true })` sends) never writes into the project.
 *
 * @module
 */

import { createClient } from "redis";
import { boundCommand } from "./bound_command.ts";
import { redisCommand } from "./resp_command.ts";
import { waitFor } from "./wait_for.ts";

/** A running test server. */
export interface TestRedis {
  /** `redis://127.0.0.1:<port>` */
  url: string;
  port: number;
  /**
   * Kills the server (SIGKILL, by its pid) and waits for it to exit. With
   * `keepData`, it first saves its data to disk (as a Redis with persistence
   * would have), so the next {@link TestRedis.start} comes back with it;
   * without, the data is gone.
   */
  stop(options?: { keepData?: boolean }): Promise<void>;
  /** Starts a stopped server again on the same port (a no-op while it runs). */
  start(): Promise<void>;
  /** Stops and starts it on the same port, empty. */
  restart(): Promise<void>;
  /** Freezes the process (SIGSTOP): connections stay open, nothing answers. */
  pause(): void;
  /** Thaws it (SIGCONT). */
  resume(): void;
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/**
 * Whether the server answering on `port` is the one working in `dir`: test
 * files run in parallel, and another one's server may bind a port picked free
 * here before ours does (ours then exits, and PING reaches theirs).
 */
async function isServerIn(port: number, dir: string): Promise<boolean> {
  return (await redisCommand(port, "CONFIG", "GET", "dir")).includes(dir);
}

/**
 * Sends PING until the server answers, or until it `exited`: another process
 * bound the port first (a board's listener, a node's held port that accepts
 * and closes), and no PING there would ever answer.
 */
async function waitForPing(port: number, exited: () => boolean): Promise<"up" | "exited"> {
  return await waitFor(
    async () => exited() ? "exited" : (await redisCommand(port, "PING")) === "PONG" ? "up" : null,
    { what: `redis-server on port ${port} to answer PING` },
  );
}

/** redis-server arguments of a throwaway node: loopback, `port`, no persistence, working in `dir`. */
export function serverArgs(port: number, dir: string): string[] {
  return [
    "--port",
    String(port),
    "--bind",
    "127.0.0.1",
    "--save",
    "",
    "--appendonly",
    "no",
    "--dir",
    dir,
  ];
}

/** Starts redis-server on a free port and waits until it answers PING. */
export async function startRedis(): Promise<TestRedis> {
  let port = freePort();
  let child: Deno.ChildProcess | null = null;
  let dir: string | null = null;

  /** Starts the server on `port`; false when it exited instead (the port was taken first). */
  const start = async (): Promise<boolean> => {
    if (child) return true;
    dir ??= await Deno.makeTempDir({ prefix: "queue-board-redis-" });
    const spawned = boundCommand("redis-server", {
      args: serverArgs(port, dir),
      stdout: "null",
      stderr: "null",
    }).spawn();
    child = spawned;
    let exited = false;
    spawned.status.then(() => exited = true);
    if (await waitForPing(port, () => exited) === "up") return true;
    child = null;
    return false;
  };
  const stop = async ({ keepData = false }: { keepData?: boolean } = {}) => {
    if (!child) return;
    const running = child;
    child = null;
    if (keepData) {
      const reply = await redisCommand(port, "SAVE");
      if (reply !== "OK") throw new Error(`redis-server SAVE failed: ${reply}`);
    }
    try {
      running.kill("SIGKILL");
    } catch {
      // already gone
    }
    await running.status;
    if (!keepData && dir) {
      await Deno.remove(dir, { recursive: true });
      dir = null;
    }
  };

  for (let attempt = 1;; attempt++) {
    if (await start() && await isServerIn(port, dir!)) break;
    await stop();
    if (attempt === 5) throw new Error("redis-server: every free port picked was taken first");
    port = freePort();
  }
  /** Starts the stopped server again on its port, which a client of the test's knows. */
  const restartOn = async () => {
    if (!await start()) {
      throw new Error(`redis-server: port ${port} was taken while it was stopped`);
    }
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop,
    start: restartOn,
    restart: async () => {
      await stop();
      await restartOn();
    },
    pause: () => child?.kill("SIGSTOP"),
    resume: () => child?.kill("SIGCONT"),
  };
}

/** A connected node-redis client for test setup; close it with `.close()`. */
export async function connectClient(url: string): Promise<ReturnType<typeof createClient>> {
  const client = createClient({ url });
  client.on("error", () => {});
  await client.connect();
  return client;
}

/** Runs `fn` with a client of `url` (see {@link connectClient}), closed afterwards whatever happens. */
export async function withClient<T>(
  url: string,
  fn: (client: ReturnType<typeof createClient>) => Promise<T>,
): Promise<T> {
  const client = await connectClient(url);
  try {
    return await fn(client);
  } finally {
    client.destroy();
  }
}
