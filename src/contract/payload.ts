/**
 * How big values travel: a job's data, result, error and progress (and a log
 * line's meta) go into an answer whole up to a limit; over it, the answer
 * carries their size and the start of their JSON text, and the full value is
 * one `GET` away (`/jobs/{id}/payloads/{field}`, `/jobs/{id}/logs/{index}/meta`).
 * A page that shows a 10 MB input therefore loads 16 KB of it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { clipValue } from "./payload.ts";
 * assert.deepEqual(
 *   clipValue({ n: 1 }, 1024),
 *   { value: { n: 1 }, size: { bytes: 7, truncated: false } },
 * );
 * ```
 *
 * @module
 */

/** The job fields served whole on demand. */
export const PAYLOAD_FIELDS = ["data", "result", "error", "progress"] as const;

/** One of {@link PAYLOAD_FIELDS}. */
export type PayloadField = typeof PAYLOAD_FIELDS[number];

/** Largest value (bytes of compact JSON) a job answer carries whole. */
export const PAYLOAD_LIMIT = 256 * 1024;

/** Largest log meta (bytes of compact JSON) a log line carries whole; a page holds up to 1,000 lines. */
export const LOG_META_LIMIT = 8 * 1024;

/** How much of a clipped value's JSON text the answer carries (characters). */
export const PREVIEW_CHARS = 16 * 1024;

/** The size of a value, and whether the answer left it out. */
export interface PayloadSize {
  /** Bytes of the value as compact UTF-8 JSON (a string error: of the text). */
  bytes: number;
  /** True when the value was over the limit and is left out (the field reads null). */
  truncated: boolean;
  /** The first {@link PREVIEW_CHARS} characters of its JSON text, when truncated. */
  preview?: string;
}

/** Bytes `text` takes as UTF-8, counted without encoding it. */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // Two bytes below U+0800 and four per surrogate pair: one more per code unit;
    // three for the rest of the BMP: two more.
    if (code >= 0x80) bytes += code < 0x800 || (code >= 0xd800 && code <= 0xdfff) ? 1 : 2;
  }
  return bytes;
}

/**
 * `value` with its size: itself when its text is at most `limit` bytes,
 * else null and the start of its text. The text is compact JSON, or with
 * `asText` a string as itself (an error message); it is built once.
 */
export function clipValue(
  value: unknown,
  limit: number,
  asText = false,
): { value: unknown; size: PayloadSize } {
  const text = asText && typeof value === "string" ? value : JSON.stringify(value) ?? "null";
  const bytes = utf8Length(text);
  if (bytes <= limit) return { value, size: { bytes, truncated: false } };
  return { value: null, size: { bytes, truncated: true, preview: text.slice(0, PREVIEW_CHARS) } };
}
