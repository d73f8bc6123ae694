/**
 * Moving a search position past jobs that left the scanned range: a bulk
 * action on "every job matching this filter" walks the search slice by
 * slice and acts on each slice's matches, which removes them from the
 * state's list or set behind the position.
 *
 * @module
 */

import { timeFieldOf } from "../contract/job_filter.ts";
import type { JobState, SearchPosition } from "./types.ts";

/**
 * The position that starts the next slice once `removed` jobs of the slice
 * just scanned have left the state. An index (unfinished states) moves back
 * by that many. A score position (finished states) is unmoved by members
 * above it; its `skip` counts those of its own score already seen, some of
 * which may be the removed ones, so it drops by up to `removed`: at worst a
 * few members are looked at twice, never one passed over.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { positionAfterRemoving } from "./search_position.ts";
 * assert.deepEqual(
 *   positionAfterRemoving("waiting", { at: 1000, skip: 0, scanned: 1000 }, 40),
 *   { at: 960, skip: 0, scanned: 1000 },
 * );
 * ```
 */
export function positionAfterRemoving(
  state: JobState,
  position: SearchPosition,
  removed: number,
): SearchPosition {
  if (removed <= 0) return position;
  return timeFieldOf(state) === "finished"
    ? { ...position, skip: Math.max(0, position.skip - removed) }
    : { ...position, at: Math.max(0, position.at - removed) };
}
