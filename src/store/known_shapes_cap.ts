/**
 * The bounds both sources put on the error shapes they keep for the
 * `newErrorGroup` rule: how many, and how long each.
 *
 * @module
 */

import { KNOWN_SHAPE_CHARS, type KnownShape, MAX_KNOWN_SHAPES } from "../contract/alerts.ts";

/** The key a shape is kept by: `<task>\0<shape cut to its cap>`. */
export function knownShapeKey(task: string, shape: string): string {
  return `${task}\u0000${shape.slice(0, KNOWN_SHAPE_CHARS)}`;
}

/** `seen`, each shape cut to its cap; throws, writing nothing, when more than a source keeps. */
export function cutKnownShapes(seen: readonly KnownShape[]): KnownShape[] {
  if (seen.length > MAX_KNOWN_SHAPES) {
    throw new RangeError(`at most ${MAX_KNOWN_SHAPES} error shapes are kept, got ${seen.length}`);
  }
  return seen.map((known) => ({ ...known, shape: known.shape.slice(0, KNOWN_SHAPE_CHARS) }));
}
