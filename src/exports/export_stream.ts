/**
 * Lists as files, in either format: an export streams its rows as it reads
 * them (`src/http/line_stream.ts`), writes at most the board's `exportCap`
 * (`EXPORT_CAP` of `contract/config.ts` unless lowered), and ends with a line saying so when
 * it fails after it began.
 *
 * @module
 */

import type { Context } from "hono";
import { csvRow } from "../http/csv.ts";
import { type LineStreamOptions, type LineWriter, streamLines } from "../http/line_stream.ts";

/** The formats of an export. */
export type Format = "csv" | "ndjson";

/** The line that ends an export in `format` that failed after it began. */
function exportFailureLine(format: Format): LineStreamOptions["failureLine"] {
  return (error) =>
    format === "csv"
      ? csvRow([`# export failed: ${error.error} (${error.code})`])
      : `${JSON.stringify({ exportFailed: error })}\n`;
}

/**
 * Streams an export in `format` as the download `filename`: its media
 * type, its `cap` in `X-Export-Cap` beside any `headers`, and the line that
 * ends it if it fails after it began.
 */
export function streamExport(
  c: Context,
  { format, filename, cap, headers }: {
    format: Format;
    filename: string;
    /** The most rows it writes (the board's `exportCap`). */
    cap: number;
    headers?: Record<string, string>;
  },
  produce: (write: LineWriter) => Promise<void>,
): Response {
  return streamLines(c, {
    type: format === "csv" ? "text/csv; charset=utf-8" : "application/x-ndjson",
    filename,
    headers: { "X-Export-Cap": String(cap), ...headers },
    failureLine: exportFailureLine(format),
  }, produce);
}
