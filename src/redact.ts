/**
 * Deep, case-insensitive masking of sensitive keys in job values.
 *
 * @module
 */

/** What a masked value is replaced with. */
export const REDACTED = "[REDACTED]";

/** A function that returns a masked copy of a value. */
export type Redactor = (value: unknown) => unknown;

/**
 * Builds a redactor for the given key names. Keys match case-insensitively at
 * any depth, inside arrays too; the input is never modified.
 *
 * @example
 * ```ts
 * import { createRedactor } from "./redact.ts";
 * const redact = createRedactor(["password"]);
 * redact({ user: { Password: "hunter2" } }); // { user: { Password: "[REDACTED]" } }
 * ```
 */
export function createRedactor(keys: readonly string[]): Redactor {
  const masked = new Set(keys.map((key) => key.toLowerCase()));
  if (masked.size === 0) return (value) => value;

  return function redact(value: unknown): unknown {
    if (Array.isArray(value)) return value.map(redact);
    if (value === null || typeof value !== "object") return value;
    const copy: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      copy[key] = masked.has(key.toLowerCase()) ? REDACTED : redact(inner);
    }
    return copy;
  };
}
