/**
 * Hardening: security headers, body caps, and what the board never does with
 * job data.
 */

import assert from "node:assert/strict";
import { createBoard } from "../../mod.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";

Deno.test("HTML pages carry a CSP that allows only the board's own code, and no framing", async () => {
  const source = createMemorySource();
  const board = createBoard(source, { logo: "https://cdn.example.com/logo.svg" });
  const response = await board.fetch(new Request("http://x/board/"));
  assert.match(response.headers.get("content-type")!, /text\/html/);
  const csp = response.headers.get("content-security-policy")!;
  assert.match(csp, /default-src 'self'/);
  assert.match(csp, /script-src 'self'(;|$)/);
  assert.match(csp, /style-src 'self' 'nonce-[^']+'/);
  assert.match(csp, /frame-ancestors 'none'/);
  assert.match(csp, /object-src 'none'/);
  assert.match(csp, /img-src 'self' data: https:\/\/cdn\.example\.com/);
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
  assert.equal(response.headers.get("x-content-type-options"), "nosniff");
  assert.equal(response.headers.get("referrer-policy"), "same-origin");
  assert.equal(response.headers.get("x-frame-options"), "DENY");
  assert.equal(response.headers.get("strict-transport-security"), null, "HSTS is the host's call");
  const html = await response.text();
  assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/, "no inline scripts");
  await source.close();
});

Deno.test("request bodies over 1 MiB are refused with 413 before any handler reads them", async () => {
  const source = createMemorySource();
  const board = createBoard(source);
  const response = await board.fetch(
    new Request("http://x/board/api/jobs/x/cancel", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ reason: "x".repeat(1024 * 1024 + 10) }),
    }),
  );
  assert.equal(response.status, 413);
  assert.equal((await response.json()).code, "INVALID_PARAM");
  await source.close();
});

Deno.test("API errors never leak a stack", async () => {
  const source = createMemorySource();
  const failing = Object.assign(Object.create(source), {
    listTasks: () => Promise.reject(new Error("boom at secret.ts:12")),
  });
  const board = createBoard(failing as typeof source);
  const errors: unknown[] = [];
  const log = console.error;
  console.error = (...args: unknown[]) => errors.push(args);
  const response = await board.fetch(new Request("http://x/board/api/overview"));
  console.error = log;
  assert.equal(response.status, 500);
  assert.deepEqual(await response.json(), { error: "Internal error", code: "INTERNAL" });
  assert.equal(errors.length, 1, "logged once on the server");
  await source.close();
});
