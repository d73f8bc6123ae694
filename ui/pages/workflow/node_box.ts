/**
 * How big a graph node is drawn and how its task name fits in it: one size
 * for every node of a graph, wide enough for the longest task name up to a
 * cap; longer names are cut with an ellipsis (the full name is in the
 * node's tooltip and accessible name).
 *
 * @module
 */
import type { NodeBox } from "./layout.ts";

/** Height of a node: the task name line and the state · job id line. */
export const NODE_HEIGHT = 50;
/** Left edge of the task name (after the state dot) and its right margin. */
export const NAME_X = 28;
const NAME_RIGHT_MARGIN = 14;
/** Narrowest node: the `cancelled · 1234abcd` line must fit. */
const MIN_WIDTH = 172;
/** Widest node: beyond this, names are cut so the layers stay readable. */
const MAX_WIDTH = 260;
/** The task name's font, as `.wf-node-name` sets it (the family is read from the page). */
const NAME_FONT = "600 13px";

let context: CanvasRenderingContext2D | null = null;

/** Width of a task name in pixels, measured in the page's own font. */
function nameWidth(name: string): number {
  if (!context) {
    context = document.createElement("canvas").getContext("2d");
    if (!context) return name.length * 8;
    context.font = `${NAME_FONT} ${getComputedStyle(document.body).fontFamily}`;
  }
  return context.measureText(name).width;
}

/** The node size that fits the longest of `names`, within the bounds. */
export function nodeBoxFor(names: readonly string[]): NodeBox {
  const widest = Math.max(0, ...names.map(nameWidth));
  const width = Math.ceil(widest + NAME_X + NAME_RIGHT_MARGIN);
  return { width: Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, width)), height: NODE_HEIGHT };
}

/** `name`, cut with `…` when it is wider than a node of `box` holds. */
export function fitName(name: string, box: NodeBox): string {
  const room = box.width - NAME_X - NAME_RIGHT_MARGIN;
  if (nameWidth(name) <= room) return name;
  let kept = name.length - 1;
  while (kept > 1 && nameWidth(`${name.slice(0, kept)}…`) > room) kept--;
  return `${name.slice(0, kept)}…`;
}
