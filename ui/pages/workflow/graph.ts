/**
 * The workflow graph as SVG, drawn by us from the layout: one rounded box
 * per node in its state's colour, labelled with the task name, the state and
 * the short job id; one curve with an arrowhead per dependency. Curves into
 * an active node are animated (the work is flowing there). Each node is a
 * link to its job, reachable with Tab and opened with a click or Enter.
 * On a narrow screen the layers run top to bottom; at every width the graph
 * pans and zooms (`pan_zoom.ts`).
 *
 * @module
 */
import { useId, useMemo } from "preact/hooks";
import { countOf } from "../../../src/contract/plural.ts";
import { shortId } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";
import { href } from "../../lib/router.ts";
import { useMediaQuery } from "../../lib/use_media_query.ts";
import type { GraphDirection, GraphLayout, NodeBox, PlacedEdge, PlacedNode } from "./layout.ts";
import { usePanZoom } from "./pan_zoom.ts";
import { fitName, NAME_X, nodeBoxFor } from "./node_box.ts";
import type { WorkflowNode } from "./types.ts";
import { useGraphLayout } from "./use_graph_layout.ts";

/** Blank space around the drawing, so focus rings and shadows are not clipped. */
const PADDING = 24;

/** How a dependency is drawn. */
type EdgeTone = "flowing" | "done" | "waiting";

/** Flowing into an active node, done once the node it waits for completed, else waiting. */
function edgeTone(from: WorkflowNode, to: WorkflowNode): EdgeTone {
  if (to.state === "active") return "flowing";
  return from.state === "completed" ? "done" : "waiting";
}

/**
 * An SVG path through `points` that leaves and enters every point along the
 * layers' direction (a "bump" curve), so edges meet the nodes' sides squarely.
 */
function curveThrough(points: readonly [number, number][], direction: GraphDirection): string {
  const [[x0, y0], ...rest] = points;
  let path = `M${x0},${y0}`;
  let [px, py] = [x0, y0];
  for (const [x, y] of rest) {
    if (direction === "down") {
      const mid = (py + y) / 2;
      path += `C${px},${mid} ${x},${mid} ${x},${y}`;
    } else {
      const mid = (px + x) / 2;
      path += `C${mid},${py} ${mid},${y} ${x},${y}`;
    }
    [px, py] = [x, y];
  }
  return path;
}

function Edge(
  { edge, tone, markerId, direction }: {
    edge: PlacedEdge;
    tone: EdgeTone;
    markerId: string;
    direction: GraphDirection;
  },
) {
  return html`
    <path
      class=${`wf-edge wf-edge-${tone}`}
      d=${curveThrough(edge.points, direction)}
      marker-end=${`url(#${markerId}-${tone === "flowing" ? "flowing" : "idle"})`}
    />
  `;
}

/**
 * The job's own state, when it says more than the node's: a dispatched
 * ("active") node whose job still waits, or is delayed or retrying.
 */
function distinctJobState(node: WorkflowNode): string | null {
  return node.jobState !== null && node.jobState !== node.state ? node.jobState : null;
}

/** What a node with no job yet shows under its name, by its reason's code. */
const NOT_STARTED: Record<string, string> = {
  workflowParents: "no job yet",
  workflowEnded: "never runs",
};

function GraphNode(
  { node, place, box, name }: { node: WorkflowNode; place: PlacedNode; box: NodeBox; name: string },
) {
  const jobState = distinctJobState(node);
  const tooltip = [
    `${node.taskName} · ${node.state}`,
    `job ${node.jobId}${node.jobState ? ` · ${node.jobState}` : ""}`,
    node.notStarted?.summary,
    node.error,
  ].filter(Boolean).join("\n");
  const label = `${node.taskName}, ${node.state}${jobState ? `, job ${jobState}` : ""}`;
  // A node with no job yet has no job page to open: it says why instead.
  return html`
    <a
      class=${`wf-node state-${node.state}`}
      href=${node.notStarted ? undefined : href("jobs", node.jobId)}
      tabindex=${node.notStarted ? 0 : undefined}
      aria-label=${node.notStarted ? `${label}: ${node.notStarted.summary}` : label}
      transform=${`translate(${place.x - box.width / 2},${place.y - box.height / 2})`}
    >
      <title>${tooltip}</title>
      <rect class="wf-node-box" width=${box.width} height=${box.height} rx="8" />
      <circle class="wf-node-dot" cx="16" cy="18" r="4.5" />
      <text class="wf-node-name" x=${NAME_X} y="22.5">${name}</text>
      <text class="wf-node-meta" x="16" y="39">${node.state} · ${jobState
        ? `job ${jobState}`
        : node.notStarted
        ? NOT_STARTED[node.notStarted.code]
        : shortId(node.jobId)}</text>
    </a>
  `;
}

/** The graph of a workflow's nodes, laid out for the screen's width. */
export function WorkflowGraph({ nodes }: { nodes: readonly WorkflowNode[] }) {
  const markerId = useId();
  const direction: GraphDirection = useMediaQuery("(max-width: 640px)") ? "down" : "right";
  const box = useMemo(() => nodeBoxFor(nodes.map((node) => node.taskName)), [nodes]);
  const deps = useMemo(() => nodes.map((node) => node.deps), [nodes]);
  const names = useMemo(() => nodes.map((node) => fitName(node.taskName, box)), [nodes, box]);
  const { layout, error } = useGraphLayout(deps, box, direction);

  if (error) {
    return html`<p class="empty">The graph cannot be drawn: ${error.message}</p>`;
  }
  if (!layout) return html`<p class="empty wf-graph-pending">Laying out the graph…</p>`;
  return html`
    <${PlacedGraph} nodes=${nodes} layout=${layout} box=${box} names=${names}
      markerId=${markerId} />
  `;
}

/** The laid-out graph in its pan-and-zoom frame, with the zoom buttons. */
function PlacedGraph(
  { nodes, layout, box, names, markerId }: {
    nodes: readonly WorkflowNode[];
    layout: GraphLayout;
    box: NodeBox;
    names: readonly string[];
    markerId: string;
  },
) {
  const bounds = {
    x: -PADDING,
    y: -PADDING,
    width: layout.width + 2 * PADDING,
    height: layout.height + 2 * PADDING,
  };
  const view = usePanZoom(bounds, `${layout.direction}:${layout.width}x${layout.height}`);
  // Tab order follows the drawing: layer by layer, then along the layer.
  const placed = [...layout.nodes]
    .filter((place) => nodes[place.index])
    .sort((a, b) => layout.direction === "down" ? a.y - b.y || a.x - b.x : a.x - b.x || a.y - b.y);
  return html`
    <div class="wf-graph-tools" role="toolbar" aria-label="Graph view">
      <button type="button" class="btn btn-small" aria-label="Zoom in" onClick=${view
        .zoomIn}>+</button>
      <button type="button" class="btn btn-small" aria-label="Zoom out" onClick=${view
        .zoomOut}>−</button>
      <button type="button" class="btn btn-small" onClick=${view.fit}>Fit</button>
    </div>
    <div class="wf-graph-scroll" ref=${view.frameRef}>
      <svg
        ref=${view.svgRef}
        class="wf-graph"
        width="100%"
        height=${view.height}
        viewBox=${view.viewBox}
        preserveAspectRatio="xMidYMid meet"
        role="group"
        aria-label=${`Workflow graph, ${countOf(nodes.length, "node")}`}
      >
        <defs>
          ${(["idle", "flowing"] as const).map((kind) =>
            html`
              <marker
                key=${kind}
                id=${`${markerId}-${kind}`}
                class=${`wf-arrow-${kind}`}
                viewBox="0 0 10 10"
                refX="9"
                refY="5"
                markerWidth="9"
                markerHeight="9"
                markerUnits="userSpaceOnUse"
                orient="auto"
              >
                <path d="M1,1 L9,5 L1,9 z" />
              </marker>
            `
          )}
        </defs>
        <g aria-hidden="true">
          ${layout.edges.map((edge) => {
            const from = nodes[edge.from];
            const to = nodes[edge.to];
            return from && to
              ? html`
                <${Edge}
                  key=${`${edge.from}-${edge.to}`}
                  edge=${edge}
                  tone=${edgeTone(from, to)}
                  markerId=${markerId}
                  direction=${layout.direction}
                />
              `
              : null;
          })}
        </g>
        <g>
          ${placed.map((place) =>
            html`
              <${GraphNode}
                key=${place.index}
                node=${nodes[place.index]}
                place=${place}
                box=${box}
                name=${names[place.index]}
              />
            `
          )}
        </g>
      </svg>
    </div>
  `;
}
