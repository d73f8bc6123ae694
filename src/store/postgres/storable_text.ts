/**
 * PostgreSQL's `text` and `jsonb` hold no NUL character (U+0000): a value
 * holding one fails its whole statement. A job's error is whatever its
 * handler threw, and a task's name or a job's id whatever taskora took, so
 * the history on PostgreSQL keeps each NUL as U+FFFD, and reads with the
 * same change: one such error never stops the recorder (a failed batch is
 * written again, and fails again), and a search or a lookup holding one is
 * answered, not a 500.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { storableText } from "./storable_text.ts";
 * assert.equal(storableText("bad\0byte"), "bad\uFFFDbyte");
 * assert.equal(storableText("plain"), "plain");
 * ```
 *
 * @module
 */

import type { BacklogSample } from "../../history/rollup.ts";
import type { HistoryBatch, HistorySearch } from "../../history/store.ts";
import type { HistoryEntry } from "../../history/summary.ts";

/** `text` as PostgreSQL can hold it: each NUL as U+FFFD. */
export function storableText(text: string): string {
  return text.replaceAll("\0", "\uFFFD");
}

/** `text` as PostgreSQL can hold it, null kept. */
function storableOrNull(text: string | null): string | null {
  return text === null ? null : storableText(text);
}

/** An entry's texts as PostgreSQL can hold them (its stored payloads are JSON text: NUL escaped). */
function storableEntry(entry: HistoryEntry): HistoryEntry {
  return {
    ...entry,
    task: storableText(entry.task),
    id: storableText(entry.id),
    event: storableText(entry.event),
    error: storableOrNull(entry.error),
    errorShape: storableOrNull(entry.errorShape),
  };
}

/** A batch's texts as PostgreSQL can hold them. */
export function storableBatch(batch: HistoryBatch): HistoryBatch {
  return {
    entries: batch.entries.map(storableEntry),
    samples: batch.samples?.map((sample): BacklogSample => ({
      ...sample,
      task: storableText(sample.task),
    })),
    cursors: batch.cursors && Object.fromEntries(
      Object.entries(batch.cursors).map(([stream, id]) => [storableText(stream), id]),
    ),
  };
}

/** A search's texts as the stored ones were changed. */
export function storableSearch<T extends HistorySearch>(query: T): T {
  const text = (value: string | undefined) => value === undefined ? undefined : storableText(value);
  return {
    ...query,
    task: text(query.task),
    errorText: text(query.errorText),
    idPrefix: text(query.idPrefix),
  };
}
