/**
 * CSV cells and rows (RFC 4180): a cell holding a comma, a quote, a CR or
 * an LF is quoted, its quotes doubled; rows end in CRLF. A text cell that
 * starts with `=`, `+`, `-`, `@`, a tab or a CR is prefixed with `'`, so a
 * spreadsheet opening the export shows it as text instead of running it as
 * a formula (CSV injection). Numbers are written as they are.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { csvRow } from "./csv.ts";
 * assert.deepEqual(csvRow(["a,b", '=HYPERLINK("x")', 3]), '"a,b","\'=HYPERLINK(""x"")",3\r\n');
 * ```
 *
 * @module
 */

/** What a cell may hold: null is an empty cell. */
export type CsvCell = string | number | boolean | null;

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One cell, escaped. */
export function csvCell(value: CsvCell): string {
  if (value === null) return "";
  if (typeof value !== "string") return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One row, CRLF-terminated. */
export function csvRow(cells: readonly CsvCell[]): string {
  return `${cells.map(csvCell).join(",")}\r\n`;
}
