/**
 * A `Host` that names no host (a port past 65535, an IPv6 zone) is refused
 * by both servers, with or without `allowedHosts`, and logs nothing:
 * `Deno.serve` puts the header into `request.url` as is, where `new URL`
 * throws.
 */

import assert from "node:assert/strict";
import { createBoard } from "../../mod.ts";
import type { BoardOptions } from "../../src/options.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import { rawRequest } from "../helpers/raw_http.ts";
import { SERVE_PATHS, serveBoard } from "../helpers/serve_board.ts";

const MALFORMED = ["localhost:99999", "[::1%25lo]", "[::1%lo]", "board.example.com:3000x"];
const PATHS = ["/board/api/config", "/board/", "/board/login", "/board/metrics"];

/** Runs `fn`, returning what it logged with console.error. */
async function errorsLoggedBy(fn: () => Promise<void>): Promise<string[]> {
  const logged: string[] = [];
  const error = console.error;
  console.error = (...args: unknown[]) => logged.push(args.map(String).join(" "));
  try {
    await fn();
  } finally {
    console.error = error;
  }
  return logged;
}

const BOARDS: Array<[string, BoardOptions]> = [
  ["no allowedHosts", {}],
  ["allowedHosts", { allowedHosts: ["board.example.com"] }],
];

for (const via of SERVE_PATHS) {
  for (const [what, options] of BOARDS) {
    Deno.test(`${via}, ${what}: a malformed Host is refused (400 or 403), nothing logged`, async () => {
      const source = createMemorySource();
      const board = createBoard(source, options);
      const server = await serveBoard(board, via);
      try {
        const logged = await errorsLoggedBy(async () => {
          for (const host of MALFORMED) {
            for (const path of PATHS) {
              const request = `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`;
              const { status, body } = await rawRequest(server.port, request);
              assert.ok(status === 400 || status === 403, `${host} ${path}: ${status} ${body}`);
              if (status === 403) {
                assert.match(body, /"code":"HOST_NOT_ALLOWED"/, `${host} ${path}`);
              }
            }
          }
        });
        assert.deepEqual(logged, []);
      } finally {
        await server.stop();
        await board.close();
        await source.close();
      }
    });
  }
}
