/**
 * A loopback TCP proxy that counts round trips (one each time the client
 * speaks after the server has answered) and the commands the client sent
 * (RESP arrays, a pipeline's each). Put it between the board and Redis to see
 * how many times a request waits on the network, and what the board alone
 * sent where `INFO commandstats` mixes every client's and the commands scripts
 * run inside.
 */

/** A running proxy and its counter. */
export interface RoundTripProxy {
  /** `redis://127.0.0.1:<port>` of the proxy. */
  url: string;
  /** Round trips since the last reset. */
  readonly roundTrips: number;
  /** Commands the clients sent since the last reset. */
  readonly commands: number;
  reset(): void;
  close(): void;
}

/**
 * Counts the commands in what a client sends: RESP arrays of bulk strings
 * (`*<n>\r\n` then n times `$<len>\r\n<bytes>\r\n`), as node-redis writes them,
 * split across reads anywhere.
 */
class CommandCounter {
  count = 0;
  #pending = new Uint8Array(0);

  feed(bytes: Uint8Array): void {
    const data = new Uint8Array(this.#pending.length + bytes.length);
    data.set(this.#pending);
    data.set(bytes, this.#pending.length);
    let at = 0;
    for (let end; (end = this.#command(data, at)) !== null; at = end) this.count++;
    this.#pending = data.slice(at);
  }

  /** Where the command starting at `at` ends, or null when it is not all there. */
  #command(data: Uint8Array, at: number): number | null {
    const header = this.#line(data, at);
    if (header === null) return null;
    let next = header.next;
    for (let i = 0; i < header.value; i++) {
      const length = this.#line(data, next);
      if (length === null || length.next + length.value + 2 > data.length) return null;
      next = length.next + length.value + 2;
    }
    return next;
  }

  /** The number after the type byte of the line at `at` (`*3`, `$5`), and where the next starts. */
  #line(data: Uint8Array, at: number): { value: number; next: number } | null {
    const end = data.indexOf(13, at); // \r
    if (end < 0 || end + 1 >= data.length) return null;
    return { value: Number(new TextDecoder().decode(data.subarray(at + 1, end))), next: end + 2 };
  }
}

/** Starts a proxy to `127.0.0.1:<targetPort>`. */
export function startRoundTripProxy(targetPort: number): RoundTripProxy {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const connections = new Set<Deno.Conn>();
  let roundTrips = 0;
  const counters = new Set<CommandCounter>();

  async function serve(client: Deno.Conn) {
    const server = await Deno.connect({ hostname: "127.0.0.1", port: targetPort });
    connections.add(client).add(server);
    let clientTurn = false;
    const counter = new CommandCounter();
    counters.add(counter);
    const pump = async (from: Deno.Conn, to: Deno.Conn, fromClient: boolean) => {
      const buffer = new Uint8Array(64 * 1024);
      try {
        while (true) {
          const n = await from.read(buffer);
          if (n === null) break;
          if (fromClient && !clientTurn) roundTrips++;
          if (fromClient) counter.feed(buffer.subarray(0, n));
          clientTurn = fromClient;
          let written = 0;
          while (written < n) written += await to.write(buffer.subarray(written, n));
        }
      } catch {
        // a side closed: the other pump ends too
      } finally {
        for (const conn of [from, to]) {
          try {
            conn.close();
          } catch { /* already closed */ }
          connections.delete(conn);
        }
      }
    };
    pump(client, server, true);
    pump(server, client, false);
  }

  (async () => {
    try {
      for await (const conn of listener) serve(conn);
    } catch { /* closed */ }
  })();

  return {
    url: `redis://127.0.0.1:${(listener.addr as Deno.NetAddr).port}`,
    get roundTrips() {
      return roundTrips;
    },
    get commands() {
      let sum = 0;
      for (const counter of counters) sum += counter.count;
      return sum;
    },
    reset() {
      roundTrips = 0;
      for (const counter of counters) counter.count = 0;
    },
    close() {
      listener.close();
      for (const conn of connections) {
        try {
          conn.close();
        } catch { /* already closed */ }
      }
    },
  };
}
