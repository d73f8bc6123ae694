/**
 * The building blocks of the board's configuration schemas (the options and
 * the alerts file), in the zod the routes use. Every refusal says what the
 * field allows, and names it by its path as an operator writes it
 * (`rules[0].threshold`), an unknown key included.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import { parseDuration } from "./duration.ts";

/** What a refusal reads of zod's issue: the value refused, and where it sits. */
type Issue = { input?: unknown; path?: readonly PropertyKey[] };

/** Words for a refused value: the text after the field's name. */
export type Refusal = (issue: Issue) => string;

/** `must be <allowed>`: a refusal that never repeats the value (it may be a secret). */
export function must(allowed: string): Refusal {
  return () => `must be ${allowed}`;
}

/**
 * `must be <allowed> (got <value>)`, the value described by `shown` (by
 * default itself, for a string quoted); `why` is said after it.
 */
export function mustShowing(
  allowed: string,
  { shown = (value: unknown): unknown => value, why }: {
    shown?: (value: unknown) => unknown;
    why?: string;
  } = {},
): Refusal {
  return (issue) =>
    `must be ${allowed} (got ${describe(shown(issue.input))})${why ? `: ${why}` : ""}`;
}

/** A value as a refusal shows it: a string quoted, an object or array named, never spelt out. */
function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (value === null || typeof value !== "object") return String(value);
  return Array.isArray(value) ? "an array" : "an object";
}

/** A whole number from `min` to `max`. */
export function wholeNumber(min: number, max: number, error: Refusal) {
  return z.number({ error }).int({ error }).min(min, { error }).max(max, { error });
}

/**
 * A duration as operators write it (`"30s"`, `"5m"`, `"2h"`, `"1d"` or ms)
 * from `min` to `max` ms, read as ms.
 */
export function duration(min: number, max: number, error: Refusal) {
  return z.union([z.string(), z.number()], { error }).transform((value, ctx) => {
    const ms = parseDuration(value);
    if (ms !== null && ms >= min && ms <= max) return ms;
    ctx.issues.push({ code: "custom", input: value, message: error({ input: value }) });
    return z.NEVER;
  });
}

/** A value that must be a function, typed as `F`. */
export function functionOf<F>(error: Refusal) {
  return z.custom<F>((value) => typeof value === "function", { error });
}

/**
 * An object of exactly `shape`'s keys: another key is refused by its own
 * path (`health.maxWait`), in `unknownKey`'s words (handed the key), where
 * zod's strict object would name the object alone.
 */
export function closedObject<S extends z.core.$ZodLooseShape>(
  shape: S,
  error: Refusal,
  unknownKey: Refusal,
): z.ZodObject<S, z.core.$strict> {
  const key = (issue: Issue) => issue.path?.at(-1);
  const closed = z.object(shape, { error }).catchall(
    z.any().refine(() => false, { error: (issue) => unknownKey({ ...issue, input: key(issue) }) }),
  ).openapi({ additionalProperties: false });
  // Typed as the strict object it is (its catchall takes no key), not as an index of any.
  return closed as unknown as z.ZodObject<S, z.core.$strict>;
}

/**
 * A value read by the schema `choose` picks for it (a hook function or a
 * session object; `false` or an object): a union would refuse a bad field
 * of the chosen form as "none of the forms", this one names the field.
 */
export function picked<I, O>(choose: (value: I) => z.ZodType<O>) {
  // Optional, so that an object's key read by it may be absent: `choose` says what absent means.
  return z.custom<I>(() => true).optional().transform((value, ctx): O => {
    const parsed = choose(value as I).safeParse(value);
    if (parsed.success) return parsed.data;
    for (const { path, message } of parsed.error.issues) {
      ctx.issues.push({ code: "custom", path, message, input: value });
    }
    return z.NEVER;
  });
}

/** `schema`, or null when absent. */
export function orNull<T extends z.ZodType>(schema: T) {
  return schema.optional().transform((value) => value ?? null);
}

/** A zod issue's path as an operator names the field: `rules[0].threshold`, `auth.sessionTtl`. */
export function fieldPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (name, key) =>
      typeof key === "number"
        ? `${name}[${key}]`
        : name === ""
        ? String(key)
        : `${name}.${String(key)}`,
    "",
  );
}

/** The first refusal of a failed parse: the field it names and its words. */
export function firstRefusal(error: z.ZodError): { field: string; message: string } {
  const [issue] = error.issues;
  return { field: fieldPath(issue.path), message: issue.message };
}
