/**
 * `useGraphLayout(deps, box)`: the layout of a workflow graph, computed by
 * `layout.ts`, which is loaded on first use so d3-dag stays out of the main
 * bundle.
 *
 * @module
 */
import { useEffect, useState } from "preact/hooks";
import type { GraphDirection, GraphLayout, NodeBox } from "./layout.ts";

/** The layout once computed, or why it could not be. */
export interface GraphLayoutState {
  layout: GraphLayout | null;
  error: Error | null;
}

/**
 * Lays out the graph whose node `i` waits for `deps[i]`. Only the shape
 * counts: node states change all the time during a run, the layout does not
 * (a live reload with the same shape keeps the layout it has).
 */
export function useGraphLayout(
  deps: readonly (readonly number[])[],
  box: NodeBox,
  direction: GraphDirection = "right",
): GraphLayoutState {
  const [state, setState] = useState<GraphLayoutState>({ layout: null, error: null });
  const shape = JSON.stringify([box.width, box.height, direction, deps]);

  useEffect(() => {
    let current = true;
    import("./layout.ts").then(
      ({ layoutWorkflow }) => layoutWorkflow(deps, box, direction),
    ).then(
      (layout) => current && setState({ layout, error: null }),
      (error) => current && setState({ layout: null, error: error as Error }),
    );
    return () => {
      current = false;
    };
  }, [shape]);

  return state;
}
