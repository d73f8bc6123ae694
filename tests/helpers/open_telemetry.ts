/**
 * An OpenTelemetry SDK set up as an application would (a tracer provider,
 * the async-hooks context manager, the W3C propagator), for tests of
 * `withTraceparent()`, and a dispatch inside one of its spans.
 *
 * @module
 */

// deno-lint-ignore-file no-explicit-any
import { context, propagation, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { BasicTracerProvider } from "@opentelemetry/sdk-trace-base";
import { withTraceparent } from "../../src/tracing.ts";

/** Registers the SDK globally; the function returned unregisters it. */
export function setUpOpenTelemetry(): () => void {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(new BasicTracerProvider());
  return () => {
    trace.disable();
    propagation.disable();
    context.disable();
  };
}

/** Dispatches `data` to a taskora task through `withTraceparent()` inside a span: the job id and the span's trace id. */
export async function dispatchInSpan(
  task: any,
  data: Record<string, unknown>,
): Promise<{ id: string; traceId: string }> {
  return await trace.getTracer("queue-board-tests").startActiveSpan("dispatch", async (span) => {
    try {
      const id: string = await task.dispatch(withTraceparent(data));
      return { id, traceId: span.spanContext().traceId };
    } finally {
      span.end();
    }
  });
}
