/**
 * What the servers a board runs on (`Deno.serve(board.fetch)`,
 * `board.listen`, the CLI's, and node:http with `board.handler`) hand the
 * board differently, checked on each over a socket: requests without `Content-Length`, as curl and most HTTP
 * clients send them (`OPTIONS`, a `DELETE` with no body, a chunked `POST`),
 * sent byte for byte; and a client that leaves, which must abort the
 * request's signal and release an event stream.
 */

import assert from "node:assert/strict";
import { createBoard } from "../../mod.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import { rawRequest } from "../helpers/raw_http.ts";
import { sourceWith } from "../helpers/source_with.ts";
import { SERVE_PATHS, serveBoard } from "../helpers/serve_board.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { isEvent, openStream } from "../events/sse_client.ts";

function request(method: string, path: string, headers: string[] = [], body = ""): string {
  return [`${method} ${path} HTTP/1.1`, "Host: 127.0.0.1", "Connection: close", ...headers]
    .join("\r\n") + `\r\n\r\n${body}`;
}

/** `text` as one chunk of a chunked body, and the last chunk. */
function chunked(text: string): string {
  return `${new TextEncoder().encode(text).length.toString(16)}\r\n${text}\r\n0\r\n\r\n`;
}

const JSON_CHUNKED = ["Content-Type: application/json", "Transfer-Encoding: chunked"];

const CASES = [
  {
    what: "OPTIONS with no CORS",
    send: request("OPTIONS", "/board/api/overview"),
    status: 405,
    code: "METHOD_NOT_ALLOWED",
  },
  {
    what: "a CORS preflight",
    send: request("OPTIONS", "/board/api/jobs/job-1/retry", [
      "Origin: https://ops.example",
      "Access-Control-Request-Method: POST",
      "Access-Control-Request-Headers: content-type",
    ]),
    status: 204,
    code: null,
    cors: true,
  },
  {
    what: "a DELETE with no body",
    send: request("DELETE", "/board/api/schedules/nightly", ["Content-Type: application/json"]),
    status: 404,
    code: "SCHEDULE_NOT_FOUND",
  },
  {
    what: "a chunked POST",
    send: request("POST", "/board/api/jobs/job-1/retry", JSON_CHUNKED, chunked("{}")),
    status: 404,
    code: "JOB_NOT_FOUND",
  },
];

for (const via of SERVE_PATHS) {
  Deno.test(`${via}: requests without Content-Length are answered, never 500`, async () => {
    const source = createMemorySource();
    const plain = createBoard(source);
    const cors = createBoard(source, { cors: { origin: "https://ops.example" } });
    const servers = { plain: await serveBoard(plain, via), cors: await serveBoard(cors, via) };
    try {
      for (const { what, send, status, code, cors = false } of CASES) {
        const answer = await rawRequest(servers[cors ? "cors" : "plain"].port, send);
        assert.equal(answer.status, status, `${what}: ${answer.head}\n${answer.body}`);
        if (code !== null) assert.match(answer.body, new RegExp(`"code":"${code}"`), what);
      }
    } finally {
      await servers.plain.stop();
      await servers.cors.stop();
      await plain.close();
      await cors.close();
      await source.close();
    }
  });
}

/** The board's event stream clients now, from its metrics. */
async function streamClients(url: string): Promise<number> {
  const text = await (await fetch(`${url}/board/metrics`)).text();
  return Number(/^queue_board_sse_clients (\d+)$/m.exec(text)?.[1]);
}

for (const via of SERVE_PATHS) {
  Deno.test(`${via}: an event stream whose client left is released at once`, async () => {
    const source = createMemorySource();
    const board = createBoard(source);
    const server = await serveBoard(board, via);
    const url = `${server.url}/board/api/events`;
    try {
      const leaving = new AbortController();
      const stream = await openStream(fetch, url, { signal: leaving.signal });
      const staying = await openStream(fetch, url);
      source.store.emit("mail", "active", "m1");
      await stream.waitFor(isEvent("job:active"));
      assert.equal(await streamClients(server.url), 2);
      leaving.abort();
      await stream.ended;
      // Nothing is written meanwhile: the closed connection itself must tell the board.
      await waitFor(async () => await streamClients(server.url) === 1, {
        what: "the client that left to be released",
        everyMs: 50,
      });
      source.store.emit("mail", "progress", "m2", { value: "1" });
      await staying.waitFor(isEvent("job:progress"));
      await staying.close();
    } finally {
      await board.close();
      await server.stop();
      await source.close();
    }
  });
}

for (const via of SERVE_PATHS) {
  Deno.test(`${via}: the request's signal aborts when the client leaves`, async () => {
    const memory = createMemorySource();
    let scanSignal: AbortSignal | undefined;
    // A mechanics scan that lasts until its request's signal ends it.
    const source = sourceWith(memory, {
      scanMechanics: (_task, _cursor, signal) => {
        scanSignal = signal;
        return new Promise((resolve) => {
          signal?.addEventListener(
            "abort",
            () => resolve({ entries: [], scanCalls: 0, cursor: null }),
          );
        });
      },
    });
    const board = createBoard(source);
    const server = await serveBoard(board, via);
    try {
      const leaving = new AbortController();
      const asked = fetch(`${server.url}/board/api/tasks/mail/mechanics`, {
        signal: leaving.signal,
      }).catch(() => null);
      const signal = await waitFor(() => scanSignal, { what: "the scan to start" });
      leaving.abort();
      assert.equal(await asked, null, "the client gave up");
      await waitFor(() => signal.aborted, { what: "the scan's signal to abort", everyMs: 20 });
    } finally {
      await board.close();
      await server.stop();
      await memory.close();
    }
  });
}
