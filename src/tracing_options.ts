/**
 * The `tracing` option: the trace and logs URL templates a job page links
 * to, and where the traceparent sits in a job's data. A template is a whole
 * `http:` or `https:` URL (a `javascript:` or `data:` one would run in the
 * operator's browser) naming only known placeholders, so a typo is an error
 * at start rather than a broken link on every job.
 *
 * @module
 */

import { TRACE_LINK_PLACEHOLDERS, type TraceLinkConfig } from "./contract/trace_links.ts";

/** The default `tracing.path`. */
export const DEFAULT_TRACE_PATH = "_trace";

const KEYS = ["traceUrl", "logsUrl", "path"];

/** A refused `tracing` field: `options.ts` words it as a `BoardOptionsError`. */
export class TracingOptionError extends TypeError {
  /** The field (`tracing.traceUrl`), what it allows and what it got. */
  constructor(readonly option: string, readonly allowed: string, readonly got: unknown) {
    super(`option "${option}" must be ${allowed}`);
    this.name = "TracingOptionError";
  }
}

function checkTemplate(option: string, value: unknown, required: string | null): string | null {
  if (value === undefined) return null;
  const allowed = `an http(s) URL template${required ? ` naming {${required}}` : ""} with only ` +
    TRACE_LINK_PLACEHOLDERS.map((name) => `{${name}}`).join(", ");
  const refuse = (): never => {
    throw new TracingOptionError(option, allowed, value);
  };
  if (typeof value !== "string") return refuse();
  const names = [...value.matchAll(/\{([^}]*)\}/g)].map((match) => match[1]);
  if (names.some((name) => !TRACE_LINK_PLACEHOLDERS.includes(name))) refuse();
  if (required !== null && !names.includes(required)) refuse();
  // Every placeholder filled, the template must be a URL of its own scheme.
  const sample = value.replace(/\{\w+\}/g, "0");
  if (!URL.canParse(sample)) refuse();
  const { protocol } = new URL(sample);
  if (protocol !== "http:" && protocol !== "https:") refuse();
  return value;
}

/**
 * The resolved `tracing` option (null when absent), or throws a
 * {@link TracingOptionError} naming the field.
 */
export function checkTracing(tracing: unknown): TraceLinkConfig | null {
  if (tracing === undefined) return null;
  if (tracing === null || typeof tracing !== "object" || Array.isArray(tracing)) {
    throw new TracingOptionError("tracing", "{ traceUrl?, logsUrl?, path? }", tracing);
  }
  for (const key of Object.keys(tracing)) {
    if (!KEYS.includes(key)) {
      throw new TracingOptionError(`tracing.${key}`, "absent", key);
    }
  }
  const { traceUrl, logsUrl, path = DEFAULT_TRACE_PATH } = tracing as Record<string, unknown>;
  if (typeof path !== "string" || !/^[^.]+(\.[^.]+)*$/.test(path)) {
    throw new TracingOptionError(
      "tracing.path",
      'dotted keys, like "_trace" or "meta.trace"',
      path,
    );
  }
  return {
    traceUrl: checkTemplate("tracing.traceUrl", traceUrl, "traceId"),
    logsUrl: checkTemplate("tracing.logsUrl", logsUrl, null),
    path: path.split("."),
  };
}
