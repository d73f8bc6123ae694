/**
 * The workflow graph as SVG, drawn by us from the layout: one rounded box
 * per node in its state's colour, labelled with the task name, the state and
 * the short job id; one curve with an arrowhead per dependency. Curves into
 * an active node are animated (the work is flowing there). Each node is a
 * link to its job, reachable with Tab and opened with a click or Enter.
 *
 * @module
 */
import { useId, useMemo } from "preact/hooks";
import { countOf } from "../../../src/contract/plural.ts";
import { ScrollArea } from "../../components/scroll_area.ts";
import { shortId } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";
import { href } from "../../lib/router.ts";
import type { NodeBox, PlacedEdge, PlacedNode } from "./layout.ts";
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
 * An SVG path through `points` that leaves and enters every point
 * horizontally (a "bump" curve), so edges meet the nodes' sides squarely.
 */
function curveThrough(points: readonly [number, number][]): string {
  const [[x0, y0], ...rest] = points;
  let path = `M${x0},${y0}`;
  let [px, py] = [x0, y0];
  for (const [x, y] of rest) {
    const mid = (px + x) / 2;
    path += `C${mid},${py} ${mid},${y} ${x},${y}`;
    [px, py] = [x, y];
  }
  return path;
}

function Edge(
  { edge, tone, markerId }: { edge: PlacedEdge; tone: EdgeTone; markerId: string },
) {
  return html`
    <path
      class=${`wf-edge wf-edge-${tone}`}
      d=${curveThrough(edge.points)}
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

function GraphNode(
  { node, place, box, name }: { node: WorkflowNode; place: PlacedNode; box: NodeBox; name: string },
) {
  const jobState = distinctJobState(node);
  const tooltip = [
    `${node.taskName} · ${node.state}`,
    `job ${node.jobId}${node.jobState ? ` · ${node.jobState}` : ""}`,
    node.error,
  ].filter(Boolean).join("\n");
  return html`
    <a
      class=${`wf-node state-${node.state}`}
      href=${href("jobs", node.jobId)}
      aria-label=${`${node.taskName}, ${node.state}${jobState ? `, job ${jobState}` : ""}`}
      transform=${`translate(${place.x - box.width / 2},${place.y - box.height / 2})`}
    >
      <title>${tooltip}</title>
      <rect class="wf-node-box" width=${box.width} height=${box.height} rx="8" />
      <circle class="wf-node-dot" cx="16" cy="18" r="4.5" />
      <text class="wf-node-name" x=${NAME_X} y="22.5">${name}</text>
      <text class="wf-node-meta" x="16" y="39">${node.state} · ${jobState
        ? `job ${jobState}`
        : shortId(node.jobId)}</text>
    </a>
  `;
}

/** The graph of a workflow's nodes, in a scrollable box sized to the layout. */
export function WorkflowGraph({ nodes }: { nodes: readonly WorkflowNode[] }) {
  const markerId = useId();
  const box = useMemo(() => nodeBoxFor(nodes.map((node) => node.taskName)), [nodes]);
  const deps = useMemo(() => nodes.map((node) => node.deps), [nodes]);
  const names = useMemo(() => nodes.map((node) => fitName(node.taskName, box)), [nodes, box]);
  const { layout, error } = useGraphLayout(deps, box);

  if (error) {
    return html`<p class="empty">The graph cannot be drawn: ${error.message}</p>`;
  }
  if (!layout) return html`<p class="empty wf-graph-pending">Laying out the graph…</p>`;

  // Tab order follows the drawing: layer by layer, top to bottom.
  const placed = [...layout.nodes]
    .filter((place) => nodes[place.index])
    .sort((a, b) => a.x - b.x || a.y - b.y);
  const width = layout.width + 2 * PADDING;
  const height = layout.height + 2 * PADDING;
  return html`
    <${ScrollArea} class="wf-graph-scroll">
      <svg
        class="wf-graph"
        width=${width}
        height=${height}
        viewBox=${`${-PADDING} ${-PADDING} ${width} ${height}`}
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
      <//>
  `;
}
