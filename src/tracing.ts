/**
 * Optional: puts the active OpenTelemetry span's W3C `traceparent` into a
 * job's data at dispatch, where the board's `tracing` option reads it to
 * link the job page to its trace. It goes through OpenTelemetry's API
 * (`propagation.inject`), so it writes whatever the application's
 * registered propagator writes, and nothing when no SDK is set up or no
 * span is active: a job is never refused for want of a trace.
 *
 * ```ts ignore
 * import { withTraceparent } from "@x/queue-board/tracing";
 * await sendEmail.dispatch(withTraceparent({ to: "ada@example.com" }));
 * ```
 *
 * @module
 */

import { context, propagation } from "@opentelemetry/api";

/** The key `withTraceparent()` writes under by default, and the board reads (`tracing.path`). */
export const TRACE_KEY = "_trace";

/** The carrier written into a job's data: the propagator's headers. */
export type TraceCarrier = Record<string, string>;

/**
 * A copy of `data` with the active context's propagation headers
 * (`traceparent`, and `tracestate` when there is one) under `key`; `data`
 * itself unchanged when nothing was injected (no span, no propagator).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { withTraceparent } from "./tracing.ts";
 * // No OpenTelemetry SDK registered here: the data goes as it came.
 * const data = withTraceparent({ to: "ada" });
 * assert.deepEqual(data, { to: "ada" });
 * assert.equal(data._trace?.traceparent, undefined); // typed: the carrier may be there
 * ```
 */
export function withTraceparent<T extends object, K extends string = typeof TRACE_KEY>(
  data: T,
  key: K = TRACE_KEY as K,
): T & { [P in K]?: TraceCarrier } {
  const carrier: TraceCarrier = {};
  propagation.inject(context.active(), carrier);
  if (!("traceparent" in carrier)) return data;
  return { ...data, [key]: carrier };
}
