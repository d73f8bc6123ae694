/**
 * A throwaway redis-server for tests: on a free port of 127.0.0.1, with no
 * persistence, stopped (and restartable on the same port) by the test.
 *
 * @module
 */

import { createClient } from "redis";

/** A running test server. */
export interface TestRedis {
  /** `redis://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** Kills the server and waits for it to exit. */
  stop(): Promise<void>;
  /** Starts it again on the same port (empty: nothing is persisted). */
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

/** Sends PING over a raw socket until the server answers (or 5 s pass). */
async function waitForPing(port: number): Promise<void> {
  const deadline = Date.now() + 5000;
  while (Date.now() < deadline) {
    try {
      const conn = await Deno.connect({ hostname: "127.0.0.1", port });
      try {
        await conn.write(new TextEncoder().encode("PING\r\n"));
        const buf = new Uint8Array(16);
        const n = await conn.read(buf);
        if (n && new TextDecoder().decode(buf.subarray(0, n)).startsWith("+PONG")) return;
      } finally {
        conn.close();
      }
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`redis-server on port ${port} did not answer PING`);
}

/** Starts redis-server on a free port and waits until it answers PING. */
export async function startRedis(): Promise<TestRedis> {
  const port = freePort();
  let child: Deno.ChildProcess | null = null;

  const start = async () => {
    child = new Deno.Command("redis-server", {
      args: [
        "--port",
        String(port),
        "--bind",
        "127.0.0.1",
        "--save",
        "",
        "--appendonly",
        "no",
      ],
      stdout: "null",
      stderr: "null",
    }).spawn();
    await waitForPing(port);
  };
  const stop = async () => {
    if (!child) return;
    const running = child;
    child = null;
    try {
      running.kill("SIGKILL");
    } catch {
      // already gone
    }
    await running.status;
  };

  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop,
    restart: async () => {
      await stop();
      await start();
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
