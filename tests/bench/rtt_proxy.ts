/**
 * A loopback TCP proxy that counts round trips: one each time the client
 * speaks after the server has answered. Put it between the board and Redis to
 * see how many times a request waits on the network.
 */

/** A running proxy and its counter. */
export interface RoundTripProxy {
  /** `redis://127.0.0.1:<port>` of the proxy. */
  url: string;
  /** Round trips since the last reset. */
  readonly roundTrips: number;
  reset(): void;
  close(): void;
}

/** Starts a proxy to `127.0.0.1:<targetPort>`. */
export function startRoundTripProxy(targetPort: number): RoundTripProxy {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const connections = new Set<Deno.Conn>();
  let roundTrips = 0;

  async function serve(client: Deno.Conn) {
    const server = await Deno.connect({ hostname: "127.0.0.1", port: targetPort });
    connections.add(client).add(server);
    let clientTurn = false;
    const pump = async (from: Deno.Conn, to: Deno.Conn, fromClient: boolean) => {
      const buffer = new Uint8Array(64 * 1024);
      try {
        while (true) {
          const n = await from.read(buffer);
          if (n === null) break;
          if (fromClient && !clientTurn) roundTrips++;
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
    reset() {
      roundTrips = 0;
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
