/**
 * A body field that takes a duration as the board's operators write it
 * everywhere (`"30s"`, `"5m"`, `"2h"`, `"1d"`, or milliseconds; see
 * `duration.ts`), parsed to ms; anything else is refused naming the field
 * (400 `INVALID_PARAM`, through `openapi.ts`'s hook).
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import { parseDuration } from "../../duration.ts";

const FORMS = 'milliseconds or a duration like "30s", "5m", "2h", "1d"';

/** What a refusal says: the forms taken, the longest and what was sent. */
function durationError(got: unknown, maxMs: number | undefined): string {
  const longest = maxMs === undefined ? "" : `, at most ${maxMs} ms`;
  return `must be ${FORMS}${longest} (got ${JSON.stringify(got)})`;
}

/** A duration field, parsed to ms, up to `maxMs` when given. */
export function durationField(maxMs?: number) {
  return z.union([z.number(), z.string()], {
    error: (issue) => durationError(issue.input, maxMs),
  }).transform((raw, ctx) => {
    const ms = parseDuration(raw);
    if (ms === null || (maxMs !== undefined && ms > maxMs)) {
      ctx.issues.push({ code: "custom", input: raw, message: durationError(raw, maxMs) });
      return z.NEVER;
    }
    return ms;
  }).openapi({ description: `${FORMS}` });
}
