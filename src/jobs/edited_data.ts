/**
 * Retrying a job with new data: what the data may be, and whether the
 * board may offer to edit it at all.
 *
 * @module
 */

import { MAX_EDITED_DATA_BYTES } from "../contract/jobs.ts";
import { invalidParam } from "../errors.ts";
import type { ResolvedOptions } from "../options.ts";

/**
 * The `data` of an edited retry's body: present, and at most
 * {@link MAX_EDITED_DATA_BYTES} of JSON text (its depth was checked with
 * the body).
 */
export function editedData(body: { data: unknown }): unknown {
  const bytes = new TextEncoder().encode(JSON.stringify(body.data)).length;
  if (bytes > MAX_EDITED_DATA_BYTES) {
    throw invalidParam(
      "data",
      `must be at most ${MAX_EDITED_DATA_BYTES} bytes of JSON (got ${bytes})`,
    );
  }
  return body.data;
}

/**
 * Whether the board shows job data as stored: with redaction or a data
 * formatter the editor would hold masked or reshaped values, and an edited
 * retry would write them over the real ones.
 */
export function dataShownAsStored(
  options: Pick<ResolvedOptions, "redact" | "formatters">,
): boolean {
  return options.redact.length === 0 && options.formatters.data === undefined;
}
