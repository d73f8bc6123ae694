/**
 * The holding proxy stops a client at a command, whole: what the client sent
 * before it reaches the server entire, however the bytes were cut into
 * reads. The history takeover tests hold the change feed's save of its ids
 * once the leader sent a batch; a batch larger than one read, its end read
 * together with the save, was held with the save, and the test waited in
 * vain for the batch to be written.
 */

import assert from "node:assert/strict";
import { respArguments, startHoldingProxy } from "../helpers/holding_proxy.ts";
import { waitFor } from "../helpers/wait_for.ts";

/** A TCP server that keeps every byte it receives (a stand-in for Redis). */
function startRecordingServer() {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const received: Uint8Array[] = [];
  const conns: Deno.Conn[] = [];
  void (async () => {
    for await (const conn of listener) {
      conns.push(conn);
      void (async () => {
        const buffer = new Uint8Array(64 * 1024);
        for (let n; (n = await conn.read(buffer).catch(() => null)) !== null;) {
          received.push(buffer.slice(0, n));
        }
      })();
    }
  })().catch(() => {});
  return {
    port: (listener.addr as Deno.NetAddr).port,
    text: () => new TextDecoder("latin1").decode(new Uint8Array(received.flatMap((c) => [...c]))),
    close() {
      listener.close();
      for (const conn of conns) conn.close();
    },
  };
}

/** `args` as a RESP command. */
const command = (...args: string[]) => `*${args.length}\r\n${respArguments(...args)}`;

Deno.test("holdNext() forwards a command larger than a read whole, and holds the one after it", async () => {
  const server = startRecordingServer();
  const proxy = startHoldingProxy(server.port);
  const url = new URL(proxy.url);
  const client = await Deno.connect({ hostname: url.hostname, port: Number(url.port) });
  try {
    // A batch of 300 KB (several reads) and the save after it, written at once.
    const batch = command("EVALSHA", "abc", "0", `{"entries":[{${"x".repeat(300_000)}}]}`);
    const save = command("HSET", "feed:ids", "tick", "1-0");
    const held = proxy.holdNext(respArguments("HSET", "feed:ids"), '{"entries":[{');
    const bytes = new TextEncoder().encode(batch + save + command("PING"));
    for (let written = 0; written < bytes.length;) {
      written += await client.write(bytes.subarray(written));
    }
    await held;
    await waitFor(() => server.text().length >= batch.length, {
      what: "the whole batch to reach the server",
      limitMs: 5_000,
    });
    assert.equal(server.text(), batch, "the batch whole, nothing of the save or after it");
  } finally {
    client.close();
    proxy.close();
    server.close();
  }
});

Deno.test("holdNext() holds a command split across reads from its first byte", async () => {
  const server = startRecordingServer();
  const proxy = startHoldingProxy(server.port);
  const url = new URL(proxy.url);
  const client = await Deno.connect({ hostname: url.hostname, port: Number(url.port) });
  try {
    const ping = command("PING");
    const save = new TextEncoder().encode(command("HSET", "feed:ids", "tick", "1-0"));
    const held = proxy.holdNext(respArguments("HSET", "feed:ids"));
    // The ping and the save's first bytes in one write, the rest of the save in another.
    await client.write(new TextEncoder().encode(ping));
    await waitFor(() => server.text() === ping, { what: "the ping to reach the server" });
    await client.write(save.subarray(0, 5));
    await new Promise((resolve) => setTimeout(resolve, 0));
    await client.write(save.subarray(5));
    await held;
    assert.equal(server.text(), ping, "not a byte of the held save");
  } finally {
    client.close();
    proxy.close();
    server.close();
  }
});
