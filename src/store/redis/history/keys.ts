/**
 * Keys of the job history in Redis, under the board's root and all of one
 * Cluster slot: `<root>:board:{history}:...`. The hash tag puts every key
 * of the history in one slot (the board's other keys have no tag, so each is
 * a slot of its own), so a batch of entries is one script on one node, on a
 * single Redis or a Cluster alike, and never in a task's slot.
 *
 * - `...:all`: a sorted set of every summary, `<end>\0<task>\0<id>` with
 *   score 0, so reading it backwards by lex pages newest first exactly;
 * - `...:task:<task>`: the same per task, `<end>\0<id>`;
 * - `...:tasks`: a set of the tasks that have summaries (for the caps);
 * - `...:ids`: a sorted set of every summary by its job id, `<bytes>:<id>\0<task>`
 *   with score 0 (`<bytes>`: the id's length in UTF-8 bytes, so an id holding
 *   a NUL still names exactly its own members), so the tasks holding an id
 *   are one lex range;
 * - `...:job:<task>\0<id>`: a hash, the job's facts (`at`: its padded end,
 *   which names its index members) and one field per entry (`e:<event>`, its
 *   error apart as `x:<event>`), each value short enough for Redis's compact
 *   encoding;
 * - `...:meta`: a hash, the feed's last ids (`c:<stream>`) and what the caps cut;
 * - `...:cuts`: a hash, what the caps cut of each task that has summaries
 *   (`<task>` → `<dropped>|<newest end>`);
 * - `...:roll:<resolution>:<scope>:<span start>`: a hash of buckets,
 *   `<bucket start>:<field>`, expiring when its resolution's retention ends.
 *
 * @module
 */

import { keyRoot } from "../../../source/wire/keys.ts";
import { type Resolution, RESOLUTION_MS } from "../../../history/rollup.ts";

/** The root of every history key (it ends in the hash tag). */
export function historyRoot(prefix?: string): string {
  return `${keyRoot(prefix)}:board:{history}`;
}

/** The digits an end time is written with in index members, so lex order is time order. */
const TIME_DIGITS = 15;

/** An end time as index members write it. */
export function paddedTime(at: number): string {
  return String(Math.max(0, Math.floor(at))).padStart(TIME_DIGITS, "0");
}

/**
 * How many buckets one rollup hash holds: an hour of minutes, a day of
 * hours, 32 days of days. A day's chart reads 25 hashes, not 1,440 keys.
 */
export const BUCKETS_PER_SPAN: Readonly<Record<Resolution, number>> = {
  minute: 60,
  hour: 24,
  day: 32,
};

/** The start of the span (one rollup hash) holding bucket `bucket`. */
export function spanOf(bucket: number, resolution: Resolution): number {
  const span = RESOLUTION_MS[resolution] * BUCKETS_PER_SPAN[resolution];
  return Math.floor(bucket / span) * span;
}

/**
 * What every `...:ids` member of job `id` starts with: its length in UTF-8
 * bytes (as Lua's `#` counts it), the id, and a NUL; the task follows.
 */
export function idMemberStart(id: string): string {
  return `${new TextEncoder().encode(id).length}:${id}\0`;
}

/** The history's keys under `prefix`. */
export function historyKeys(prefix?: string): {
  root: string;
  all: string;
  tasks: string;
  ids: string;
  cuts: string;
  meta: string;
  task(task: string): string;
  job(task: string, id: string): string;
  rollup(resolution: Resolution, scope: string, span: number): string;
} {
  const root = historyRoot(prefix);
  return {
    root,
    all: `${root}:all`,
    tasks: `${root}:tasks`,
    ids: `${root}:ids`,
    cuts: `${root}:cuts`,
    meta: `${root}:meta`,
    task: (task) => `${root}:task:${task}`,
    job: (task, id) => `${root}:job:${task}\0${id}`,
    rollup: (resolution, scope, span) => `${root}:roll:${resolution}:${scope}:${span}`,
  };
}
