/**
 * Places a workflow graph, left to right, with d3-dag's Sugiyama layout.
 *
 * The only module that imports d3-dag: the library is large and does not
 * tree-shake, so the workflow page loads this module with a dynamic
 * `import()` and the rest of the board never pays for it.
 *
 * @module
 */
import { coordCenter, decrossDfs, graph, layeringLongestPath, sugiyama, tweakFlip } from "d3-dag";

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
 * Above this many nodes plus dependencies, the optimal operators (simplex
 * layering and coordinates, two-layer crossing reduction) take seconds on
 * the main thread; the greedy ones stay under half a second for thousands of
 * nodes, at the price of straighter, wider layouts.
 */
const OPTIMAL_LIMIT = 300;

/**
 * Lays out a workflow whose node `i` waits for the nodes `deps[i]`.
 * Dependencies that do not name another node of the graph are ignored;
 * a cycle (which taskora never writes) makes it throw.
 */
export function layoutWorkflow(deps: readonly (readonly number[])[], box: NodeBox): GraphLayout {
  const dag = graph<number, undefined>();
  const nodes = deps.map((_, index) => dag.node(index));
  let links = 0;
  deps.forEach((parents, index) => {
    for (const parent of new Set(parents)) {
      if (parent === index || !nodes[parent]) continue;
      dag.link(nodes[parent], nodes[index]);
      links++;
    }
  });
  if (nodes.length === 0) return { width: 0, height: 0, nodes: [], edges: [] };

  // Sugiyama stacks layers top to bottom; the diagonal flip turns that into
  // left to right, so the node size is given as (height, width).
  const layout = sugiyama()
    .nodeSize([box.height, box.width])
    .gap([ROW_GAP, LAYER_GAP])
    .tweaks([tweakFlip("diagonal")]);
  const { width, height } = nodes.length + links > OPTIMAL_LIMIT
    ? layout.layering(layeringLongestPath()).decross(decrossDfs()).coord(coordCenter())(dag)
    : layout(dag);

  const half = box.width / 2;
  return {
    width,
    height,
    nodes: nodes.map((node) => ({ index: node.data, x: node.x, y: node.y })),
    edges: [...dag.links()].map((link) => {
      const points = link.points.map(([x, y]) => [x, y] as [number, number]);
      points[0] = [link.source.x + half, link.source.y];
      points[points.length - 1] = [link.target.x - half, link.target.y];
      return { from: link.source.data, to: link.target.data, points };
    }),
  };
}
