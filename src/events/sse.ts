/**
 * Server-sent events for a fan-out to many clients.
 *
 * - {@link frameMessage}: `hono/streaming`'s `writeSSE` frames a message and
 *   writes it in one awaited call, per client. Sent to 1,000 clients that is
 *   1,000 framings and 1,000 awaited writes per event; instead each event is
 *   framed once, synchronously, by a pure function, and the same bytes are
 *   queued for every client, which writes all it has queued in one write.
 *   Nothing is shared between boards or clients.
 * - {@link sseResponse}: the response is a pull stream over the client's
 *   queue. `streamSSE` pipes each write through a TransformStream and a
 *   second ReadableStream; at 1,000 clients those promise hops were most of
 *   the board's CPU (measured with `tests/bench/sse.ts`), so the runtime
 *   pulls the queued bytes directly: one stream, one read per write, and no
 *   pull at all while a client's socket is full.
 * - {@link retryFrame} and {@link PING_FRAME}: a reconnection hint alone and
 *   a heartbeat comment (WHATWG HTML § 9.2.6: a line starting with `:` is a
 *   comment; `retry:` sets the reconnection time).
 * - {@link sseResponse}: `X-Accel-Buffering: no`, so nginx does not buffer
 *   the stream (`streamSSE` already sends `Cache-Control: no-cache`), and a
 *   HEAD answered with headers only.
 *
 * @module
 */

import type { Context } from "hono";

const encoder = new TextEncoder();

/** One message of the stream. */
export interface SseMessage {
  /** The event name (`event:`); the browser's default `message` when absent. */
  event?: string;
  /** The data; each of its lines becomes one `data:` line. */
  data: string;
  /** The last event id (`id:`). */
  id?: string;
}

/** A line break in a field that must be one line would start a field of the attacker's choosing. */
function oneLine(name: string, value: string): string {
  if (/[\r\n]/.test(value)) throw new TypeError(`SSE ${name} must not contain a line break`);
  return value;
}

/**
 * Frames one message as the bytes to send (WHATWG HTML § 9.2.6): `event:`,
 * one `data:` line per line of the data (CRLF, CR and LF all break a line),
 * `id:`, then a blank line. Throws on a line break in `event` or `id`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { frameMessage } from "./sse.ts";
 * const bytes = frameMessage({ event: "job:active", data: '{"id":"1"}' });
 * assert.deepEqual(new TextDecoder().decode(bytes), 'event: job:active\ndata: {"id":"1"}\n\n');
 * ```
 */
export function frameMessage(message: SseMessage): Uint8Array {
  let frame = message.event === undefined ? "" : `event: ${oneLine("event", message.event)}\n`;
  for (const line of message.data.split(/\r\n|\r|\n/)) frame += `data: ${line}\n`;
  if (message.id !== undefined) frame += `id: ${oneLine("id", message.id)}\n`;
  return encoder.encode(`${frame}\n`);
}

/** The reconnection-time hint (ms) browsers apply to the EventSource. */
export function retryFrame(ms: number): Uint8Array {
  return encoder.encode(`retry: ${Math.round(ms)}\n\n`);
}

/** A heartbeat comment: keeps proxies from closing an idle stream, ignored by EventSource. */
export const PING_FRAME: Uint8Array = encoder.encode(": ping\n\n");

/** Where a stream's bytes come from: resolves with the next bytes, or null once it ended. */
export interface SseSource {
  /** The next bytes to send (waits for them); null when the stream is over. */
  next(): Promise<Uint8Array | null>;
  /** The browser left (the runtime cancelled the body): release what the source holds. */
  cancel(): void;
}

/**
 * The event-stream response: `text/event-stream`, not cached, and not
 * buffered by nginx (`X-Accel-Buffering: no`). The runtime pulls the source
 * `open` returns as the socket drains; the stream ends when its `next()`
 * resolves null. A HEAD gets the same headers and no body, and `open` is
 * not called (the runtime drops a HEAD's body without cancelling it, so a
 * source would never be released).
 */
export function sseResponse(c: Context, open: () => SseSource): Response {
  const headers = {
    "Content-Type": "text/event-stream",
    "Cache-Control": "no-cache",
    "X-Accel-Buffering": "no",
  };
  if (c.req.method === "HEAD") return c.body(null, 200, headers);
  const source = open();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const bytes = await source.next();
      if (bytes === null) controller.close();
      else controller.enqueue(bytes);
    },
    cancel: () => source.cancel(),
  }, { highWaterMark: 0 });
  return c.body(body, 200, headers);
}
