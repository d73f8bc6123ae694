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

/** What a server answered on a raw connection: the status, the headers' block and the body. */
export interface RawAnswer {
  status: number;
  head: string;
  body: string;
}

/** Sends `request` as is on a new connection and reads until the server closes it. */
export async function rawRequest(port: number, request: string): Promise<RawAnswer> {
  const raw = await openRaw(port);
  await raw.send(request);
  const answer = await raw.closed;
  const split = answer.indexOf("\r\n\r\n");
  const head = split === -1 ? answer : answer.slice(0, split);
  const body = split === -1 ? "" : answer.slice(split + 4);
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]), head, body };
}

/** Sends one `GET path` with `Connection: close` and the given `Host`; returns the status. */
export async function rawGet(port: number, path: string, host: string): Promise<number> {
  const request = `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`;
  return (await rawRequest(port, request)).status;
}
