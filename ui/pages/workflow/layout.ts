/**
 * Places a workflow graph, left to right (or top to bottom, for a narrow
 * screen), with d3-dag's Sugiyama method.
 *
 * The only module that imports d3-dag. We take d3-dag 0.11's per-module
 * build (`dist/`, written for bundlers) and run the Sugiyama steps ourselves
 * with the combinatorial operators only: d3-dag's all-in-one `sugiyama()`
 * (like every 1.x release, which ships a single prebuilt bundle) pulls in an
 * LP solver and a quadratic-programming solver, 38 KB gzipped, for layouts a
 * workflow does not need. This way the graph page's layout code is about
 * 8 KB, and it still loads with a dynamic `import()` only on that page.
 *
 * @module
 */
import { stratify } from "d3-dag/dist/dag/create.js";
import type { Dag } from "d3-dag/dist/dag/index.d.ts";
import { greedy as coordGreedy } from "d3-dag/dist/sugiyama/coord/greedy.js";
import { dfs as decrossDfs } from "d3-dag/dist/sugiyama/decross/dfs.js";
import { twoLayer as decrossTwoLayer } from "d3-dag/dist/sugiyama/decross/two-layer.js";
import { longestPath as layeringLongestPath } from "d3-dag/dist/sugiyama/layering/longest-path.js";
import { sugify, unsugify } from "d3-dag/dist/sugiyama/utils.js";

/** The size of every node box, in pixels. */
export interface NodeBox {
  width: number;
  height: number;
}

/** A node's centre. */
export interface PlacedNode {
  index: number;
  x: number;
  y: number;
}

/**
 * One dependency: the points it passes through, from the right side of the
 * node it waits for (`from`) to the left side of the node that waits (`to`).
 * Long dependencies that skip layers get a point per skipped layer, so they
 * route around the nodes in between.
 */
export interface PlacedEdge {
  from: number;
  to: number;
  points: [number, number][];
}

/** Which way the layers run: left to right, or top to bottom (a phone's). */
export type GraphDirection = "right" | "down";

/** A laid-out graph; coordinates run from 0 to `width` / `height`. */
export interface GraphLayout {
  direction: GraphDirection;
  width: number;
  height: number;
  nodes: PlacedNode[];
  edges: PlacedEdge[];
}

/** Space between two rows of nodes in one layer. */
const ROW_GAP = 20;
/** Space between layers: room for the curve and its arrowhead. */
const LAYER_GAP = 84;
/** Space between two columns of nodes in one layer, top to bottom. */
const COLUMN_GAP = 16;
/** Space between layers top to bottom: the curve is shorter upright. */
const ROW_LAYER_GAP = 44;
/**
 * Up to this many nodes plus dependencies, crossings are reduced by repeated
 * two-layer sweeps, which count every crossing after each sweep (quadratic in
 * the width of a layer); larger graphs, such as a group of a thousand jobs,
 * get one depth-first ordering, which is linear.
 */
const SWEEP_LIMIT = 300;

/** What each d3-dag node carries: its index in the workflow. */
interface NodeDatum {
  id: string;
  parentIds: string[];
  index: number;
}

/**
 * Lays out a workflow whose node `i` waits for the nodes `deps[i]`.
 * Dependencies that do not name another node of the graph are ignored;
 * a cycle (which taskora never writes) makes it throw.
 */
export function layoutWorkflow(
  deps: readonly (readonly number[])[],
  box: NodeBox,
  direction: GraphDirection = "right",
): GraphLayout {
  if (deps.length === 0) return { direction, width: 0, height: 0, nodes: [], edges: [] };
  let links = 0;
  const data: NodeDatum[] = deps.map((parents, index) => {
    const parentIds = [...new Set(parents)]
      .filter((parent) => parent !== index && parent >= 0 && parent < deps.length)
      .map(String);
    links += parentIds.length;
    return { id: String(index), parentIds, index };
  });
  const dag: Dag<NodeDatum> = stratify()(data);

  layeringLongestPath()(dag);
  const layers = sugify(dag);
  const decross = deps.length + links > SWEEP_LIMIT ? decrossDfs() : decrossTwoLayer();
  decross(layers);
  return place(dag, layers, box, direction);
}

type Layers = ReturnType<typeof sugify<NodeDatum, unknown>>;

/**
 * Sugiyama stacks layers top to bottom, which is the "down" drawing: a layer
 * is one box high, its nodes side by side. Run left to right, the axes swap:
 * a node's extent within its layer is the box's height, and each layer is
 * one box wide.
 */
function place(
  dag: Dag<NodeDatum>,
  layers: Layers,
  box: NodeBox,
  direction: GraphDirection,
): GraphLayout {
  const down = direction === "down";
  const thick = down ? box.height : box.width;
  const gap = down ? ROW_LAYER_GAP : LAYER_GAP;
  const extent = coordGreedy()(
    layers,
    (node) =>
      ("node" in node.data ? (down ? box.width : box.height) : 0) +
      (down ? COLUMN_GAP : ROW_GAP),
  );
  layers.forEach((layer, depth) => {
    for (const node of layer) node.y = depth * (thick + gap) + thick / 2;
  });
  unsugify(layers);

  // d3-dag's x runs along a layer, its y across layers.
  const at = (along: number, across: number): [number, number] =>
    down ? [along, across] : [across, along];
  const length = layers.length * (thick + gap) - gap;
  return {
    direction,
    width: down ? extent : length,
    height: down ? length : extent,
    nodes: [...dag].map((node) => {
      const [x, y] = at(node.x!, node.y!);
      return { index: node.data.index, x, y };
    }),
    edges: [...dag.ilinks()].map(({ source, target, points }) => {
      const path = points.map(({ x, y }) => at(x!, y!));
      path[0] = at(source.x!, source.y! + thick / 2);
      path[path.length - 1] = at(target.x!, target.y! - thick / 2);
      return { from: source.data.index, to: target.data.index, points: path };
    }),
  };
}
