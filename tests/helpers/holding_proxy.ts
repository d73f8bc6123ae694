/**
 * A loopback TCP proxy in front of a redis-server that can stop one client
 * at an exact command: {@link HoldingProxy.holdNext} holds the first command
 * a client sends that contains a pattern (a command of the board's, say the
 * change feed saving its ids), and everything that client sends after it,
 * so the command never reaches Redis, while every command before it does,
 * whole. A test then kills the client with
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
   * From now on, holds the first command a client sends that contains
   * `pattern` (and all that client sends after it), once some client sent
   * a command containing `after` (when given); resolves once it held it.
   */
  holdNext(pattern: string, after?: string): Promise<void>;
  /** Closes the listener and every connection. */
  close(): void;
}

/** Consecutive arguments of a command as a client sends them (RESP bulk strings), to match on. */
export function respArguments(...args: readonly string[]): string {
  return args.map((arg) => `$${new TextEncoder().encode(arg).length}\r\n${arg}\r\n`).join("");
}

const latin1 = new TextDecoder("latin1");
const CR = 13;

/** `a` then `b`, in one array. */
function joined(a: Uint8Array, b: Uint8Array): Uint8Array<ArrayBuffer> {
  const both = new Uint8Array(a.length + b.length);
  both.set(a);
  both.set(b, a.length);
  return both;
}

async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  for (let written = 0; written < bytes.length;) {
    written += await conn.write(bytes.subarray(written));
  }
}

/** The end of the line starting at `from` (after its CRLF), or -1 while it is not all read. */
function lineEnd(bytes: Uint8Array, from: number): number {
  const cr = bytes.indexOf(CR, from);
  return cr === -1 || cr + 1 >= bytes.length ? -1 : cr + 2;
}

/**
 * The end of the client command starting at `from` (a RESP array of bulk
 * strings, as clients send them, or an inline command's line), or -1 while
 * it is not all read.
 */
function commandEnd(bytes: Uint8Array, from: number): number {
  if (from >= bytes.length) return -1;
  let at = lineEnd(bytes, from);
  if (bytes[from] !== "*".charCodeAt(0) || at === -1) return at;
  const count = Number(latin1.decode(bytes.subarray(from + 1, at - 2)));
  for (let i = 0; i < count; i++) {
    const header = lineEnd(bytes, at);
    if (header === -1) return -1;
    at = header + Number(latin1.decode(bytes.subarray(at + 1, header - 2))) + 2;
    if (at > bytes.length) return -1;
  }
  return at;
}

/** Starts a proxy to the redis-server on `127.0.0.1:<targetPort>`. */
export function startHoldingProxy(targetPort: number): HoldingProxy {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const connections = new Set<Deno.Conn>();
  let wanted: { pattern: string; after: string | null; held: () => void } | null = null;

  /**
   * Client to server: forwards whole commands until one matches the wanted pattern, then
   * nothing more. Whole: a command's bytes may come in several reads, and a read may end one
   * command and start the next (a large batch's end and the save after it), so each command is
   * matched and forwarded once it is complete, and one held is held from its first byte.
   */
  async function forwardClient(client: Deno.Conn, server: Deno.Conn): Promise<void> {
    const buffer = new Uint8Array(64 * 1024);
    let pending: Uint8Array<ArrayBuffer> = new Uint8Array(0); // the start of a command not complete yet
    let holding = false;
    while (true) {
      const n = await client.read(buffer);
      if (n === null) return;
      if (holding) continue;
      pending = joined(pending, buffer.subarray(0, n));
      let forwarded = 0;
      for (let end; !holding && (end = commandEnd(pending, forwarded)) !== -1; forwarded = end) {
        const text = latin1.decode(pending.subarray(forwarded, end));
        if (wanted?.after && text.includes(wanted.after)) wanted.after = null;
        else if (wanted?.after === null && text.includes(wanted.pattern)) holding = true;
        if (holding) break;
      }
      await writeAll(server, pending.subarray(0, forwarded));
      pending = pending.slice(forwarded);
      if (holding) {
        wanted!.held();
        wanted = null;
      }
    }
  }

  async function forwardServer(server: Deno.Conn, client: Deno.Conn): Promise<void> {
    const buffer = new Uint8Array(64 * 1024);
    while (true) {
      const n = await server.read(buffer);
      if (n === null) return;
      await writeAll(client, buffer.subarray(0, n));
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
