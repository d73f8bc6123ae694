/**
 * A test client for the event stream: opens it through any fetch function
 * and parses what arrives into frames (WHATWG SSE field rules, enough for
 * what the board sends).
 *
 * @module
 */

/** One parsed message, comment or retry hint. */
export interface Frame {
  /** `event:` (absent for a comment or a bare retry hint). */
  event?: string;
  /** `data:` lines joined with newlines. */
  data?: string;
  /** `retry:` */
  retry?: number;
  /** The text of a `:` comment line. */
  comment?: string;
}

/** How long {@link SseStream.waitFor} waits before it gives up, ms. */
export const HANG_GUARD_MS = 30_000;

/** An open stream. */
export interface SseStream {
  response: Response;
  /** Every frame received so far. */
  frames: Frame[];
  /**
   * Resolves with the first frame from index `from` on (received or future)
   * that matches. Rejects when the stream ends without one, or after
   * {@link HANG_GUARD_MS}: a guard against a hung test, not a speed assertion.
   */
  waitFor(match: (frame: Frame) => boolean, from?: number): Promise<Frame>;
  /** Resolves when the server ended the stream. */
  ended: Promise<void>;
  /** Cancels the body (the browser leaving). */
  close(): Promise<void>;
}

function parseBlock(block: string): Frame | null {
  const frame: Frame = {};
  const data: string[] = [];
  for (const line of block.split("\n")) {
    if (line.startsWith(":")) {
      frame.comment = line.slice(1).trim();
      continue;
    }
    const colon = line.indexOf(":");
    const name = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (name === "event") frame.event = value;
    else if (name === "data") data.push(value);
    else if (name === "retry") frame.retry = Number(value);
  }
  if (data.length > 0) frame.data = data.join("\n");
  return Object.keys(frame).length > 0 ? frame : null;
}

/** Opens the stream and starts reading it in the background. */
export async function openStream(
  fetcher: (request: Request) => Response | Promise<Response>,
  url: string,
  init?: RequestInit,
): Promise<SseStream> {
  const response = await fetcher(new Request(url, init));
  const frames: Frame[] = [];
  const waiters = new Set<() => void>();
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  const ended = (async () => {
    if (!response.body) return;
    reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf("\n\n")) !== -1) {
          const frame = parseBlock(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
          if (frame) frames.push(frame);
        }
        for (const wake of waiters) wake();
      }
    } catch {
      // cancelled or aborted
    } finally {
      for (const wake of waiters) wake();
    }
  })();
  let done = false;
  ended.then(() => done = true);

  return {
    response,
    frames,
    ended,
    waitFor(match, from = 0) {
      return new Promise((resolve, reject) => {
        let index = from;
        const check = () => {
          for (; index < frames.length; index++) {
            if (match(frames[index])) {
              finish();
              resolve(frames[index]);
              return;
            }
          }
          if (done) {
            finish();
            reject(new Error("the stream ended"));
          }
        };
        const timer = setTimeout(() => {
          finish();
          reject(new Error(`no matching frame (${frames.length} frames) after the hang guard`));
        }, HANG_GUARD_MS);
        const finish = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    async close() {
      await reader?.cancel().catch(() => {});
      if (!reader) await response.body?.cancel().catch(() => {});
      await ended;
    },
  };
}

/** The JSON data of a frame. */
export function dataOf<T = Record<string, unknown>>(frame: Frame): T {
  return JSON.parse(frame.data ?? "null");
}

/**
 * Each frame's data as {@link isEvent} parsed it: a test that counts the
 * frames of a stream looks at every one again at each look, and parsing
 * every stats frame (every task's figures) each time was most of the CPU
 * of `tests/http/reader_cost_test.ts`.
 */
const parsedData = new WeakMap<Frame, Record<string, unknown>>();

/** A frame of this event name whose data passes `match`. */
export function isEvent(
  event: string,
  match: (data: Record<string, unknown>) => boolean = () => true,
): (frame: Frame) => boolean {
  return (frame) => {
    if (frame.event !== event) return false;
    const data = parsedData.get(frame) ?? dataOf<Record<string, unknown>>(frame);
    parsedData.set(frame, data);
    return match(data);
  };
}
