/**
 * Server-sent events over `hono/streaming`, with what it lacks for a
 * fan-out to many clients.
 *
 * `streamSSE` gives the response, its headers and the abort handling, used
 * as it is. What this file adds, and why:
 * - {@link frameMessage}: `writeSSE` frames a message and writes it in one
 *   awaited call, per client. Sent to 1,000 clients that is 1,000 framings
 *   and 1,000 awaited writes per event; instead each event is framed once,
 *   synchronously, by a pure function, and the same bytes are queued for
 *   every client, which writes all it has queued in one write. Nothing is
 *   shared between boards or clients.
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
import { type SSEStreamingApi, streamSSE } from "hono/streaming";

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
 * import { frameMessage } from "./sse.ts";
 * const bytes = frameMessage({ event: "job:active", data: '{"id":"1"}' });
 * new TextDecoder().decode(bytes); // 'event: job:active\ndata: {"id":"1"}\n\n'
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

/**
 * `streamSSE` with the proxy header added: the response streams `run`'s
 * writes; the stream ends when `run` returns. A HEAD gets the same headers
 * and no stream: `run` never starts (the runtime drops a HEAD's body
 * without cancelling it, so a stream would never end).
 */
export function sseResponse(
  c: Context,
  run: (stream: SSEStreamingApi) => Promise<void>,
): Response {
  c.header("X-Accel-Buffering", "no");
  if (c.req.method === "HEAD") {
    return c.body(null, 200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
  }
  return streamSSE(c, run);
}
