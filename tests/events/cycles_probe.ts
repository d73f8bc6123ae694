/**
 * Run by `hub_test.ts` with `--v8-flags=--expose-gc`: connects and leaves
 * the event stream `cycles` times and prints the heap (after a full GC)
 * before and after, and the hub's state, as JSON.
 *
 * @module
 */

import { systemTimers } from "../../src/timers.ts";
import { resolveOptions } from "../../src/options.ts";
import { Hono } from "hono";
import { eventRoutes } from "../../src/api/events.ts";
import { createPresenter } from "../../src/contract/present.ts";
import { createEventHub } from "../../src/events/hub.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import { openStream } from "./sse_client.ts";

const cycles = Number(Deno.args[0] ?? 1000);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with --v8-flags=--expose-gc");

const source = createMemorySource();
const hub = createEventHub(source, createPresenter({ redact: [], formatters: {} }), {
  idleStopMs: 0,
});
const app = new Hono().route(
  "/api",
  eventRoutes({ events: hub, timers: systemTimers, options: resolveOptions({}) }),
);
const fetch = (request: Request) => app.fetch(request);

async function cycle(): Promise<void> {
  const stream = await openStream(fetch, "http://board.test/api/events");
  await stream.waitFor(() => true);
  source.store.emit("t", "active", "j");
  await stream.close();
}

async function heap(): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 50));
  gc!();
  gc!();
  return Deno.memoryUsage().heapUsed;
}

for (let i = 0; i < 200; i++) await cycle(); // warm up
const before = await heap();
for (let i = 0; i < cycles; i++) await cycle();
const after = await heap();
console.log(JSON.stringify({ before, after, state: hub.state() }));
await hub.close();
