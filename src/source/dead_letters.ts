/**
 * Grouping of failed jobs by error. Two errors fall in one group when they
 * differ only in numbers, ids (UUIDs) or hex strings, so "timeout after 3012 ms"
 * and "timeout after 2990 ms" count as one problem. A group is made from the
 * error as the board shows it (redacted), so no value redaction hides decides
 * a group, its count or its sample.
 *
 * @module
 */

import type { DeadLetterGroup, ShownError } from "./types.ts";

/** A failed job as the grouping needs it. */
export interface DeadLetterEntry {
  id: string;
  task: string;
  error: string | null;
  failedAt: number;
}

/** How many job ids a group keeps as samples. */
export const GROUP_SAMPLE_SIZE = 5;

const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
const HEX = /\b(?:0x[0-9a-f]+|[0-9a-f]{8,})\b/gi;
const NUMBER = /\d+(?:\.\d+)?/g;

/**
 * The error with its variable parts replaced: UUIDs by `<id>`, hex strings of
 * eight or more characters (or `0x…`) by `<hex>`, other numbers by `<n>`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(errorPattern("timeout after 3012 ms"), "timeout after <n> ms");
 * ```
 */
export function errorPattern(message: string): string {
  return message
    .replace(UUID, "<id>")
    .replace(HEX, (match) => match.startsWith("0x") || /\d/.test(match) ? "<hex>" : match)
    .replace(NUMBER, "<n>")
    .trim();
}

/** What a failed job without an error message is grouped under. */
const NO_MESSAGE = "(no error message)";

/** The error of one failed job as shown. */
function shownMessage(entry: DeadLetterEntry, shown?: ShownError): string {
  return entry.error === null ? NO_MESSAGE : shown ? shown(entry.error) : entry.error;
}

/** The group pattern of one failed job: of its error as shown. */
export function patternOf(entry: DeadLetterEntry, shown?: ShownError): string {
  return errorPattern(shownMessage(entry, shown));
}

/** The failed jobs of one group (by {@link patternOf}), in the order given. */
export function inGroup(
  entries: readonly DeadLetterEntry[],
  pattern: string,
  shown?: ShownError,
): DeadLetterEntry[] {
  return entries.filter((entry) => patternOf(entry, shown) === pattern);
}

/** Groups failed jobs by {@link patternOf}, most frequent first. */
export function groupDeadLetters(
  entries: Iterable<DeadLetterEntry>,
  shown?: ShownError,
): DeadLetterGroup[] {
  const groups = new Map<string, DeadLetterGroup & { taskSet: Set<string> }>();
  for (const entry of entries) {
    const message = shownMessage(entry, shown);
    const pattern = errorPattern(message);
    let group = groups.get(pattern);
    if (!group) {
      group = {
        pattern,
        sample: message,
        count: 0,
        tasks: [],
        taskSet: new Set(),
        firstSeen: entry.failedAt,
        lastSeen: entry.failedAt,
        sampleJobIds: [],
      };
      groups.set(pattern, group);
    }
    group.count++;
    group.taskSet.add(entry.task);
    if (entry.failedAt < group.firstSeen) group.firstSeen = entry.failedAt;
    if (entry.failedAt > group.lastSeen) {
      group.lastSeen = entry.failedAt;
      group.sample = message;
    }
    if (group.sampleJobIds.length < GROUP_SAMPLE_SIZE) group.sampleJobIds.push(entry.id);
  }
  return [...groups.values()]
    .map(({ taskSet, ...group }) => ({ ...group, tasks: [...taskSet].sort() }))
    .sort((a, b) => b.count - a.count || b.lastSeen - a.lastSeen);
}
