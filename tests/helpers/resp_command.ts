/**
 * One Redis command over a loopback connection of its own, answered as
 * `redis-cli` prints it off a terminal, for the helpers that poll servers
 * while they start, sync or fail over. The server sets polled it with a
 * `redis-cli` process per look (4 ms of CPU each, a raw socket 0.1 ms): the
 * cluster's contract flushed its three masters per test that way, over 600
 * processes a run.
 *
 * @module
 */

const CRLF = "\r\n";
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** `args` as a RESP array of bulk strings. */
function encoded(args: readonly string[]): Uint8Array {
  const parts = [`*${args.length}${CRLF}`];
  for (const arg of args) parts.push(`$${encoder.encode(arg).length}${CRLF}${arg}${CRLF}`);
  return encoder.encode(parts.join(""));
}

/** Reads RESP replies off a connection, as many bytes as each needs. */
class ReplyReader {
  readonly #conn: Deno.Conn;
  #buffer = new Uint8Array(0);

  constructor(conn: Deno.Conn) {
    this.#conn = conn;
  }

  async #fill(): Promise<void> {
    const chunk = new Uint8Array(64 * 1024);
    const n = await this.#conn.read(chunk);
    if (n === null) throw new Error("the server closed the connection mid-reply");
    const joined = new Uint8Array(this.#buffer.length + n);
    joined.set(this.#buffer);
    joined.set(chunk.subarray(0, n), this.#buffer.length);
    this.#buffer = joined;
  }

  async #take(length: number): Promise<Uint8Array> {
    while (this.#buffer.length < length) await this.#fill();
    const taken = this.#buffer.subarray(0, length);
    this.#buffer = this.#buffer.subarray(length);
    return taken;
  }

  async #line(): Promise<string> {
    for (let from = 0;; await this.#fill()) {
      const end = this.#buffer.indexOf(13, from);
      if (end !== -1 && end + 1 < this.#buffer.length) {
        const line = decoder.decode(this.#buffer.subarray(0, end));
        this.#buffer = this.#buffer.subarray(end + 2);
        return line;
      }
      from = Math.max(0, this.#buffer.length - 1);
    }
  }

  /** The next reply as `redis-cli` prints it: an array's elements one a line, nil as nothing. */
  async reply(): Promise<string> {
    const line = await this.#line();
    const [kind, rest] = [line[0], line.slice(1)];
    if (kind === "$") {
      const length = Number(rest);
      if (length < 0) return "";
      return decoder.decode((await this.#take(length + 2)).subarray(0, length));
    }
    if (kind === "*") {
      const elements: string[] = [];
      for (let i = 0; i < Number(rest); i++) elements.push(await this.reply());
      return elements.join("\n");
    }
    return rest; // a status, an error or an integer: printed as is
  }
}

/**
 * Sends `args` to the redis-server on `127.0.0.1:<port>` and answers its
 * reply as `redis-cli` prints it off a terminal, trimmed: nothing when the
 * server cannot be reached or drops the connection, as `redis-cli` prints
 * nothing on its standard output then.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { redisCommand } from "./resp_command.ts";
 * const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
 * const { port } = listener.addr as Deno.NetAddr;
 * listener.close();
 * assert.equal(await redisCommand(port, "PING"), "", "no server there");
 * ```
 */
export async function redisCommand(port: number, ...args: string[]): Promise<string> {
  let conn: Deno.Conn;
  try {
    conn = await Deno.connect({ hostname: "127.0.0.1", port });
  } catch {
    return "";
  }
  try {
    const bytes = encoded(args);
    for (let written = 0; written < bytes.length;) {
      written += await conn.write(bytes.subarray(written));
    }
    return (await new ReplyReader(conn).reply()).trim();
  } catch {
    return "";
  } finally {
    conn.close();
  }
}
