/**
 * HTTP/1.1 over a bare TCP socket, for what `fetch` cannot send or wait
 * for: any `Host` header, half a request, a connection left idle.
 *
 * @module
 */

/** A TCP connection to a server on 127.0.0.1, read in the background until it closes. */
export interface RawConnection {
  /** Sends text as is. */
  send(text: string): Promise<void>;
  /** Everything the server sent, once it has closed the connection. */
  closed: Promise<string>;
  /** Closes our side (when the test is over before the server closed it). */
  close(): void;
}

/** Opens a connection to `127.0.0.1:port`. */
export async function openRaw(port: number): Promise<RawConnection> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  const decoder = new TextDecoder();
  let open = true;
  const closed = (async () => {
    let text = "";
    const buffer = new Uint8Array(16 * 1024);
    try {
      for (let n = await conn.read(buffer); n !== null; n = await conn.read(buffer)) {
        text += decoder.decode(buffer.subarray(0, n), { stream: true });
      }
    } catch (error) {
      // A reset by the server is a close too; our own close() ends the read with BadResource.
      if (!(error instanceof Deno.errors.ConnectionReset) && open) throw error;
    }
    close();
    return text;
  })();
  function close() {
    if (!open) return;
    open = false;
    conn.close();
  }
  return {
    async send(text) {
      await conn.write(new TextEncoder().encode(text));
    },
    closed,
    close,
  };
}

/** Sends one `GET path` with `Connection: close` and the given `Host`; returns the status. */
export async function rawGet(port: number, path: string, host: string): Promise<number> {
  const raw = await openRaw(port);
  await raw.send(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
  const answer = await raw.closed;
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]);
}
