/**
 * A uPlot chart as a component. uPlot is loaded on first use (its own
 * chunk, and its stylesheet: see {@link linkStylesheet}), sized to its container and redrawn when the theme changes; axis
 * and grid colours come from the stylesheet's variables at draw time, so
 * they follow light, dark and auto. The canvas is described for screen
 * readers by `label`.
 *
 * @module
 */
import type uPlot from "uplot";
import { useEffect, useRef, useState } from "preact/hooks";
import { html } from "../lib/html.ts";
import { theme } from "../lib/theme.ts";

/** Options for a chart, without the size (the container gives it). */
export type ChartOptions = Omit<uPlot.Options, "width" | "height">;

/**
 * uPlot's stylesheet, as the UI links it: the build names it by its hash
 * (`assets/uPlot.<hash>.css`, see `scripts/build_ui.ts`), relative to the
 * page's `<base>`.
 */
const STYLESHEET = "assets/uPlot.css";

let stylesheet: Promise<void> | null = null;

/**
 * Links uPlot's stylesheet once, before the board's own (which overrides
 * some of its rules), and settles when it has loaded, so no chart is drawn
 * unstyled. A failed load is tried again by the next chart.
 */
function linkStylesheet(): Promise<void> {
  return stylesheet ??= new Promise((resolve, reject) => {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = STYLESHEET;
    link.onload = () => resolve();
    link.onerror = () => {
      stylesheet = null;
      link.remove();
      reject(new Error(`${STYLESHEET} did not load`));
    };
    const board = document.head.querySelector('link[rel="stylesheet"]');
    if (board) board.before(link);
    else document.head.append(link);
  });
}

let probe: HTMLElement | null = null;

/**
 * The current value of a colour variable (`--text-muted`). Variables hold
 * `light-dark()` pairs, which only an element's computed colour resolves.
 */
export function themeColor(variable: string): string {
  if (!probe) {
    probe = document.createElement("span");
    probe.hidden = true;
    document.body.append(probe);
  }
  probe.style.color = `var(${variable})`;
  return getComputedStyle(probe).color;
}

/** Axis and grid styling that follows the theme. */
export function themedAxis(axis: uPlot.Axis = {}): uPlot.Axis {
  return {
    stroke: () => themeColor("--text-muted"),
    grid: { stroke: () => themeColor("--border"), width: 1 },
    ticks: { stroke: () => themeColor("--border"), width: 1 },
    ...axis,
  };
}

/** Space between the widest label and the canvas edge (CSS px). */
const LABEL_MARGIN = 2;

/**
 * An axis size (CSS px) that fits the axis's widest label, for a vertical
 * axis's `size`: a fixed size clips longer labels from the left ("000/min"
 * for "10,000/min"). uPlot asks again with the labels it will draw (first
 * with none) until the size settles.
 */
export function fitLabels(u: uPlot, values: string[] | null, axisIdx: number): number {
  const axis = u.axes[axisIdx];
  // After init uPlot holds the font as [font scaled to the device, its px, CSS px].
  u.ctx.font = (axis.font as unknown as [string])[0];
  const widest = Math.max(0, ...(values ?? []).map((label) => u.ctx.measureText(label).width));
  const ticks = axis.ticks?.show === false ? 0 : axis.ticks?.size ?? 10;
  return Math.ceil(widest / devicePixelRatio + ticks + (axis.gap ?? 5) + LABEL_MARGIN);
}

/**
 * Renders `data` with `options`; `label` describes the chart in words.
 * `onScale` hears the x range (in the data's unit) each time it is set:
 * on the first draw, on a zoom, and on the double-click that zooms out.
 */
export function UPlotChart(
  { options, data, height, label, onScale }: {
    options: ChartOptions;
    data: uPlot.AlignedData;
    height: number;
    label: string;
    onScale?: (min: number, max: number) => void;
  },
) {
  const container = useRef<HTMLDivElement>(null);
  const scaleListener = useRef(onScale);
  scaleListener.current = onScale;
  const [chart, setChart] = useState<uPlot | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const el = container.current;
    if (!el) return;
    let created: uPlot | null = null;
    let cancelled = false;
    const resize = new ResizeObserver(() => {
      created?.setSize({ width: el.clientWidth, height });
    });
    Promise.all([import("uplot"), linkStylesheet()]).then(([{ default: UPlot }]) => {
      if (cancelled) return;
      const setScale: uPlot.Hooks.Defs["setScale"] = (u, key) => {
        const { min, max } = u.scales[key];
        if (key === "x" && min != null && max != null) scaleListener.current?.(min, max);
      };
      const hooks = { ...options.hooks, setScale: [...(options.hooks?.setScale ?? []), setScale] };
      created = new UPlot({ ...options, hooks, width: el.clientWidth, height }, data, el);
      resize.observe(el);
      setChart(created);
    }, () => setFailed(true));
    return () => {
      cancelled = true;
      resize.disconnect();
      created?.destroy();
    };
    // The chart is built once; data updates go through setData below.
  }, [options, height]);

  useEffect(() => {
    if (!chart || chart.data === data) return;
    // Keep the user's zoom: rescale to the new data only when nothing is zoomed.
    const x = chart.scales.x;
    const shown = chart.data[0];
    const zoomed = shown.length > 0 && x.min != null && x.max != null &&
      (x.min > shown[0] || x.max < shown[shown.length - 1]);
    chart.setData(data, !zoomed);
  }, [chart, data]);

  // Theme switches (and the OS scheme under "auto") recolour the axes.
  const current = theme.value;
  useEffect(() => {
    chart?.redraw(false);
    const media = matchMedia("(prefers-color-scheme: dark)");
    const redraw = () => chart?.redraw(false);
    media.addEventListener("change", redraw);
    return () => media.removeEventListener("change", redraw);
  }, [chart, current]);

  return html`
    <div class="chart" role="img" aria-label=${label}>
      <div ref=${container} style=${{ minHeight: `${height}px` }}></div>
      ${failed ? html`<p class="muted">The chart could not be loaded.</p>` : null}
    </div>
  `;
}
