/**
 * Requests without `Content-Length`, as curl and most HTTP clients send
 * them (`OPTIONS`, a `DELETE` with no body, a chunked `POST`), answered the
 * same by both servers a board runs on: `Deno.serve(board.fetch)` and
 * `board.listen` (the CLI's), sent byte for byte over a socket.
 */

import assert from "node:assert/strict";
import { createBoard } from "../../mod.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import { rawRequest } from "../helpers/raw_http.ts";
import { SERVE_PATHS, serveBoard } from "../helpers/serve_board.ts";

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
