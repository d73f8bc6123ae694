/**
 * A loopback TCP proxy in front of a redis-server that can stop one client
 * at an exact command: {@link HoldingProxy.holdNext} holds the first bytes a
 * client sends that contain a pattern (a command of the board's, say the
 * change feed saving its ids), and everything that client sends after them,
 * so the command never reaches Redis. A test then kills the client with
 * SIGKILL knowing what it had written and what it had not: the window a
 * real `kill -9` hits only by chance.
 *
 * @module
 */

/** A running proxy. */
export interface HoldingProxy {
  /** `redis://127.0.0.1:<port>` of the proxy. */
  url: string;
  /**
   * From now on, holds the first bytes a client sends that contain
   * `pattern` (and all that client sends after them), once some client
   * sent bytes containing `after` (when given); resolves once it held them.
   */
  holdNext(pattern: string, after?: string): Promise<void>;
  /** Closes the listener and every connection. */
  close(): void;
}

/** Consecutive arguments of a command as a client sends them (RESP bulk strings), to match on. */
export function respArguments(...args: readonly string[]): string {
  return args.map((arg) => `$${new TextEncoder().encode(arg).length}\r\n${arg}\r\n`).join("");
}

/** Starts a proxy to the redis-server on `127.0.0.1:<targetPort>`. */
export function startHoldingProxy(targetPort: number): HoldingProxy {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const connections = new Set<Deno.Conn>();
  let wanted: { pattern: string; after: string | null; held: () => void } | null = null;

  /** Client to server: forwards until a chunk matches the wanted pattern, then nothing more. */
  async function forwardClient(client: Deno.Conn, server: Deno.Conn): Promise<void> {
    const buffer = new Uint8Array(64 * 1024);
    const decoder = new TextDecoder("latin1");
    let tail = ""; // the end of the last chunk: a pattern may straddle two reads
    let holding = false;
    while (true) {
      const n = await client.read(buffer);
      if (n === null) return;
      if (holding) continue;
      const text = decoder.decode(buffer.subarray(0, n));
      if (wanted?.after && (tail + text).includes(wanted.after)) wanted.after = null;
      else if (wanted?.after === null && (tail + text).includes(wanted.pattern)) {
        // Bytes of the command already forwarded with the last chunk leave Redis waiting for
        // the rest, which never comes: the command does not run.
        holding = true;
        wanted.held();
        wanted = null;
        continue;
      }
      tail = text.slice(-256);
      let written = 0;
      while (written < n) written += await server.write(buffer.subarray(written, n));
    }
  }

  async function forwardServer(server: Deno.Conn, client: Deno.Conn): Promise<void> {
    const buffer = new Uint8Array(64 * 1024);
    while (true) {
      const n = await server.read(buffer);
      if (n === null) return;
      let written = 0;
      while (written < n) written += await client.write(buffer.subarray(written, n));
    }
  }

  function close(...conns: Deno.Conn[]) {
    for (const conn of conns) {
      try {
        conn.close();
      } catch { /* already closed */ }
      connections.delete(conn);
    }
  }

  async function serve(client: Deno.Conn) {
    connections.add(client);
    let server: Deno.Conn;
    try {
      server = await Deno.connect({ hostname: "127.0.0.1", port: targetPort });
    } catch {
      return close(client);
    }
    connections.add(server);
    // Either side ending (or failing) ends both.
    await Promise.race([forwardClient(client, server), forwardServer(server, client)])
      .catch(() => {});
    close(client, server);
  }

  const { port } = listener.addr as Deno.NetAddr;
  void (async () => {
    for await (const conn of listener) void serve(conn);
  })().catch(() => {}); // the listener closed

  return {
    url: `redis://127.0.0.1:${port}`,
    holdNext: (pattern, after) =>
      new Promise<void>((held) => wanted = { pattern, after: after ?? null, held }),
    close() {
      try {
        listener.close();
      } catch { /* already closed */ }
      close(...connections);
    },
  };
}
