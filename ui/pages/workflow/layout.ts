/**
 * Places a workflow graph, left to right, with d3-dag's Sugiyama method.
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

/** A laid-out graph; coordinates run from 0 to `width` / `height`. */
export interface GraphLayout {
  width: number;
  height: number;
  nodes: PlacedNode[];
  edges: PlacedEdge[];
}

/** Space between two rows of nodes in one layer. */
const ROW_GAP = 20;
/** Space between layers: room for the curve and its arrowhead. */
const LAYER_GAP = 84;
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
export function layoutWorkflow(deps: readonly (readonly number[])[], box: NodeBox): GraphLayout {
  if (deps.length === 0) return { width: 0, height: 0, nodes: [], edges: [] };
  let links = 0;
  const data: NodeDatum[] = deps.map((parents, index) => {
    const parentIds = [...new Set(parents)]
      .filter((parent) => parent !== index && parent >= 0 && parent < deps.length)
      .map(String);
    links += parentIds.length;
    return { id: String(index), parentIds, index };
  });
  const dag: Dag<NodeDatum> = stratify()(data);

  // Sugiyama stacks layers top to bottom; we run them left to right, so a
  // node's extent within its layer is the box's height, and each layer is
  // one box wide.
  layeringLongestPath()(dag);
  const layers = sugify(dag);
  const decross = deps.length + links > SWEEP_LIMIT ? decrossDfs() : decrossTwoLayer();
  decross(layers);
  const height = coordGreedy()(
    layers,
    (node) => ("node" in node.data ? box.height : 0) + ROW_GAP,
  );
  layers.forEach((layer, depth) => {
    for (const node of layer) node.y = depth * (box.width + LAYER_GAP) + box.width / 2;
  });
  unsugify(layers);

  const half = box.width / 2;
  return {
    width: layers.length * (box.width + LAYER_GAP) - LAYER_GAP,
    height,
    nodes: [...dag].map((node) => ({ index: node.data.index, x: node.y!, y: node.x! })),
    edges: [...dag.ilinks()].map(({ source, target, points }) => {
      const path = points.map(({ x, y }) => [y!, x!] as [number, number]);
      path[0] = [source.y! + half, source.x!];
      path[path.length - 1] = [target.y! - half, target.x!];
      return { from: source.data.index, to: target.data.index, points: path };
    }),
  };
}
