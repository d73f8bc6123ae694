/**
 * A download streamed line by line (`hono/streaming`): NDJSON and CSV
 * exports write each page as it is read, so neither side holds the whole
 * export. A failure after the first byte cannot change the status any
 * more: it ends the file with a last line saying so.
 *
 * @module
 */

import type { Context } from "hono";
import { stream } from "hono/streaming";
import { errorBody } from "../errors.ts";

/** Writes lines (each ending in a newline) of the download. */
export type LineWriter = (lines: string) => Promise<void>;

/** Options of {@link streamLines}. */
export interface LineStreamOptions {
  /** The `Content-Type` (`application/x-ndjson`, `text/csv; charset=utf-8`). */
  type: string;
  /** The file name a browser saves it under. */
  filename: string;
  /** Extra headers (the cap, say). */
  headers?: Record<string, string>;
  /** The line that ends the file when `produce` fails after the start. */
  failureLine: (error: { error: string; code: string }) => string;
}

/** Streams what `produce` writes as a download. */
export function streamLines(
  c: Context,
  options: LineStreamOptions,
  produce: (write: LineWriter) => Promise<void>,
): Response {
  c.header("Content-Type", options.type);
  c.header("Content-Disposition", `attachment; filename="${options.filename}"`);
  c.header("Cache-Control", "no-store");
  for (const [name, value] of Object.entries(options.headers ?? {})) c.header(name, value);
  return stream(c, async (out) => {
    try {
      await produce(async (lines) => void await out.write(lines));
    } catch (error) {
      const { status, body } = errorBody(error);
      if (status === 500) console.error("queue-board: export failed", error);
      await out.write(options.failureLine(body));
    }
  });
}
