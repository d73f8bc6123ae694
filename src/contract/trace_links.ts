/**
 * Links from a job to its trace and its logs. The trace id comes from the
 * W3C `traceparent` a producer put in the job's data (at the `tracing.path`
 * option, `_trace` by default: the carrier `withTraceparent()` writes, or
 * the header's text itself). It is user data, so it is taken only when the
 * whole header is well formed (version `00`, a 32-hex-digit trace id that
 * is not all zeros, a 16-hex-digit parent id, two hex flag digits) and is
 * percent-encoded into the operator's template all the same. The data read
 * is the data as shown (formatted, then redacted): a masked traceparent is
 * `[REDACTED]`, not a header, so a redacted path gives no link.
 *
 * @module
 */

/** The trace and logs templates, and where the traceparent sits in a job's data. */
export interface TraceLinkConfig {
  /** A URL with `{traceId}` (and any of `{jobId}`, `{task}`), or null for no trace link. */
  traceUrl: string | null;
  /** A URL with any of `{from}`, `{to}` (ms), `{jobId}`, `{task}`, `{traceId}`, or null for no logs link. */
  logsUrl: string | null;
  /** The keys leading to the traceparent in a job's data (`["_trace"]` by default). */
  path: readonly string[];
}

/** A job's links, each null when the board has no template for it or the job lacks what it needs. */
export interface JobLinks {
  /** Its trace, from the traceparent in its data. */
  trace: string | null;
  /** Its logs over the last attempt's time window (from its start to its end, or `now`). */
  logs: string | null;
}

/** The placeholders a template may hold. */
export const TRACE_LINK_PLACEHOLDERS: readonly string[] = [
  "traceId",
  "jobId",
  "task",
  "from",
  "to",
];

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/;

/**
 * The trace id of a W3C `traceparent` header, or null when it is not a
 * well-formed one (an all-zero trace or parent id is invalid by the spec).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { traceIdOf } from "./trace_links.ts";
 * const id = "4bf92f3577b34da6a3ce929d0e0e4736";
 * assert.equal(traceIdOf(`00-${id}-00f067aa0ba902b7-01`), id);
 * assert.equal(traceIdOf(`00-${"0".repeat(32)}-00f067aa0ba902b7-01`), null);
 * assert.equal(traceIdOf(`00-${id}/../x-00f067aa0ba902b7-01`), null);
 * ```
 */
export function traceIdOf(traceparent: unknown): string | null {
  if (typeof traceparent !== "string") return null;
  const match = TRACEPARENT.exec(traceparent);
  if (!match || /^0+$/.test(match[1]) || /^0+$/.test(match[2])) return null;
  return match[1];
}

/** The traceparent at `path` in `data`: the carrier's `traceparent` field, or the text itself. */
function traceparentAt(data: unknown, path: readonly string[]): unknown {
  let value = data;
  for (const key of path) {
    if (value === null || typeof value !== "object" || !Object.hasOwn(value, key)) return null;
    value = (value as Record<string, unknown>)[key];
  }
  if (value !== null && typeof value === "object" && Object.hasOwn(value, "traceparent")) {
    return (value as Record<string, unknown>).traceparent;
  }
  return value;
}

/** `template` with each `{name}` replaced by its value, percent-encoded. */
export function fillTemplate(template: string, values: Record<string, string>): string {
  return template.replace(
    /\{(\w+)\}/g,
    (whole, name: string) => Object.hasOwn(values, name) ? encodeURIComponent(values[name]) : whole,
  );
}

/** What a job's links are made from. */
export interface LinkedJob {
  id: string;
  task: string;
  /** Its data as shown: formatted and redacted. */
  data: unknown;
  /** When its last attempt started (ms), or null when none has. */
  processed: number | null;
  /** When it finished (ms), or null when it has not. */
  finished: number | null;
}

/**
 * A job's trace and logs links. The trace link needs a valid traceparent;
 * the logs link needs a started attempt, and a traceparent too when its
 * template names `{traceId}`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { jobLinks } from "./trace_links.ts";
 * const id = "4bf92f3577b34da6a3ce929d0e0e4736";
 * const links = jobLinks(
 *   { traceUrl: "https://tempo.example/trace/{traceId}", logsUrl: "https://g.example/?from={from}&to={to}&job={jobId}", path: ["_trace"] },
 *   { id: "j 1", task: "mail", data: { _trace: { traceparent: `00-${id}-00f067aa0ba902b7-01` } }, processed: 5, finished: null },
 * );
 * assert.deepEqual(links, { trace: `https://tempo.example/trace/${id}`, logs: "https://g.example/?from=5&to=now&job=j%201" });
 * ```
 */
export function jobLinks(config: TraceLinkConfig, job: LinkedJob): JobLinks {
  const traceId = traceIdOf(traceparentAt(job.data, config.path));
  const values: Record<string, string> = { jobId: job.id, task: job.task };
  if (traceId !== null) values.traceId = traceId;
  const trace = config.traceUrl !== null && traceId !== null
    ? fillTemplate(config.traceUrl, values)
    : null;
  let logs: string | null = null;
  const needsTrace = config.logsUrl?.includes("{traceId}") ?? false;
  if (config.logsUrl !== null && job.processed !== null && (!needsTrace || traceId !== null)) {
    values.from = String(job.processed);
    values.to = job.finished === null ? "now" : String(job.finished);
    logs = fillTemplate(config.logsUrl, values);
  }
  return { trace, logs };
}
