/**
 * The `newErrorGroup` rule's known shapes across leaders: a board that
 * starts leading reads the ones the last leader kept in the store, and the
 * leader writes what each pass changed. A store that keeps none yet, or does
 * not answer, leaves the evaluator as it was before: a fresh baseline, what
 * its first pass finds taken as known.
 *
 * @module
 */

import { MAX_KNOWN_SHAPES } from "../contract/alerts.ts";
import type { AlertStore } from "../store/alerts.ts";
import { KnownShapes } from "./known_shapes.ts";

/** The shapes to carry on from at `now`: the store's, else none (a fresh baseline). */
export async function readKnownShapes(store: AlertStore, now: number): Promise<KnownShapes> {
  try {
    const record = await store.readKnownShapes(now);
    return record ? KnownShapes.from(record, now) : new KnownShapes();
  } catch {
    return new KnownShapes();
  }
}

/**
 * Writes what the pass changed in `shapes`; a write that fails, or a store
 * holding more than the cap (two leaders wrote at once), makes the next
 * write whole.
 */
export async function writeKnownShapes(
  store: AlertStore,
  shapes: KnownShapes,
  now: number,
): Promise<void> {
  const change = shapes.takeChange();
  if (change === null) return;
  try {
    const stored = await store.writeKnownShapes(change, now);
    if (stored > MAX_KNOWN_SHAPES) shapes.changeLost();
  } catch {
    shapes.changeLost();
  }
}
