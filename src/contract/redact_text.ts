/**
 * Masking the `redact` keys in plain text: taskora stores a job's `error` as
 * the text its handler threw, and a text is no object with keys to mask. A
 * redacted key in a text is read as a label: the value written after it,
 * with `=` or `:` between (`password=hunter2`, `token: sk-9`,
 * `"apiKey": "k"`), is masked, up to the next space, comma, semicolon or
 * `&`, or the whole quoted string. A key matches in any case, not inside a
 * longer name (`token` does not mask `tokens=3`).
 *
 * @module
 */

import { REDACTED } from "./masks.ts";

/** A function that returns a text with the values its keys label masked. */
export type TextRedactor = (text: string) => string;

/** `text` with every character that means something in a pattern escaped. */
function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
}

/**
 * Builds a text redactor for the given key names.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createTextRedactor } from "./redact_text.ts";
 * const redact = createTextRedactor(["password", "token"]);
 * assert.equal(
 *   redact('login refused: Password=hunter2, token: "sk 9" (tokens=3)'),
 *   'login refused: Password=[REDACTED], token: "[REDACTED]" (tokens=3)',
 * );
 * ```
 */
export function createTextRedactor(keys: readonly string[]): TextRedactor {
  if (keys.length === 0) return (text) => text;
  // The key, not inside a longer name; its closing quote, if any, and `=` or `:`; the value.
  const labelled = new RegExp(
    `(?<![\\p{L}\\p{N}_-])((?:${keys.map(literal).join("|")})["']?\\s*[=:]\\s*)` +
      `(?:"[^"]*"|'[^']*'|[^\\s,;&"']+)`,
    "giu",
  );
  return function redactText(text: string): string {
    return text.replace(labelled, (match: string, label: string) => {
      const quote = match[label.length];
      return quote === '"' || quote === "'"
        ? `${label}${quote}${REDACTED}${quote}`
        : `${label}${REDACTED}`;
    });
  };
}
