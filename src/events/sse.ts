/**
 * Server-sent events over `hono/streaming`, with what it lacks for a
 * fan-out to many clients.
 *
 * `streamSSE` gives the response, its headers and the abort handling, and
 * `writeSSE` the message framing; both are used as they are. What this file
 * adds, and why:
 * - {@link renderMessage}: `writeSSE` frames a message and writes it in one
 *   call, per client. Sent to 1,000 clients that is 1,000 framings and 1,000
 *   awaited writes per event; instead each event is framed once, by
 *   `writeSSE` itself writing into a capturing sink, and the same bytes are
 *   queued for every client, which writes all it has queued in one write.
 * - {@link retryFrame} and {@link PING_FRAME}: `writeSSE` always writes a
 *   `data:` line, so a reconnection hint alone or a heartbeat comment would
 *   reach the browser as an empty `message` event. Both are fixed lines of
 *   the SSE format (WHATWG HTML § 9.2.6: a line starting with `:` is a
 *   comment; `retry:` sets the reconnection time).
 * - {@link sseResponse}: `X-Accel-Buffering: no`, so nginx does not buffer
 *   the stream (`streamSSE` already sends `Cache-Control: no-cache`).
 *
 * @module
 */

import type { Context } from "hono";
import { type SSEMessage, SSEStreamingApi, streamSSE } from "hono/streaming";

const encoder = new TextEncoder();

/** An `SSEStreamingApi` whose `write` keeps what `writeSSE` framed instead of sending it. */
class CapturingStream extends SSEStreamingApi {
  captured: string | Uint8Array = "";

  constructor() {
    const { writable, readable } = new TransformStream<Uint8Array, Uint8Array>();
    super(writable, readable);
  }

  // deno-lint-ignore require-await
  override async write(input: string | Uint8Array): Promise<this> {
    this.captured = input;
    return this;
  }
}

const renderer = new CapturingStream();

/** One SSE message framed by hono's `writeSSE`, as the bytes to send. */
export async function renderMessage(message: SSEMessage): Promise<Uint8Array> {
  await renderer.writeSSE(message);
  const { captured } = renderer;
  return typeof captured === "string" ? encoder.encode(captured) : captured;
}

/** The reconnection-time hint (ms) browsers apply to the EventSource. */
export function retryFrame(ms: number): Uint8Array {
  return encoder.encode(`retry: ${Math.round(ms)}\n\n`);
}

/** A heartbeat comment: keeps proxies from closing an idle stream, ignored by EventSource. */
export const PING_FRAME: Uint8Array = encoder.encode(": ping\n\n");

/**
 * `streamSSE` with the proxy header added: the response streams `run`'s
 * writes; the stream ends when `run` returns.
 */
export function sseResponse(
  c: Context,
  run: (stream: SSEStreamingApi) => Promise<void>,
): Response {
  c.header("X-Accel-Buffering", "no");
  return streamSSE(c, run);
}
