/**
 * The `tracing` option: the trace and logs URL templates a job page links
 * to, and where the traceparent sits in a job's data. A template is a whole
 * `http:` or `https:` URL (a `javascript:` or `data:` one would run in the
 * operator's browser) naming only known placeholders, so a typo is an error
 * at start rather than a broken link on every job.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import { closedObject, mustShowing, orNull } from "../config_fields.ts";
import { TRACE_LINK_PLACEHOLDERS } from "../contract/trace_links.ts";
import type { BoardOptions } from "../options.ts";

/** The default `tracing.path`. */
const DEFAULT_TRACE_PATH = "_trace";

/** Whether `template`, every placeholder known and filled, is an http(s) URL naming `required`. */
function isLinkTemplate(template: string, required: string | null): boolean {
  const names = [...template.matchAll(/\{([^}]*)\}/g)].map((match) => match[1]);
  if (names.some((name) => !TRACE_LINK_PLACEHOLDERS.includes(name))) return false;
  if (required !== null && !names.includes(required)) return false;
  const sample = template.replace(/\{\w+\}/g, "0");
  return URL.canParse(sample) && /^https?:$/.test(new URL(sample).protocol);
}

function template(required: string | null) {
  const error = mustShowing(
    `an http(s) URL template${required ? ` naming {${required}}` : ""} with only ` +
      TRACE_LINK_PLACEHOLDERS.map((name) => `{${name}}`).join(", "),
  );
  return orNull(
    z.string({ error }).refine((value) => isLinkTemplate(value, required), { error }),
  );
}

const pathWords = mustShowing('dotted keys, like "_trace" or "meta.trace"');

/** The `tracing` option resolved: its templates (null when absent) and its path split. */
export const TracingSchema = orNull(closedObject(
  {
    traceUrl: template("traceId"),
    logsUrl: template(null),
    path: z.string({ error: pathWords }).regex(/^[^.]+(\.[^.]+)*$/, { error: pathWords })
      .transform((path) => path.split(".")).default([DEFAULT_TRACE_PATH]),
  } satisfies Record<keyof NonNullable<BoardOptions["tracing"]>, z.ZodType>,
  mustShowing("{ traceUrl?, logsUrl?, path? }"),
  mustShowing("absent"),
));
