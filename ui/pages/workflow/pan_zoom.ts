/**
 * Pan and zoom for the workflow graph: the SVG fills its frame's width and
 * shows one window (its `viewBox`) of the drawing. A drag pans it (a pointer
 * that moved is captured, so a click on a node still opens it), the wheel
 * or a two-finger pinch zooms around the pointer, and the `+`, `−` and Fit
 * buttons zoom around the centre or show the whole graph. It opens at the
 * drawing's own size from its top left, or fitted when `fit` is asked for.
 *
 * @module
 */
import { useEffect, useRef, useState } from "preact/hooks";

/** A window onto the drawing, in its own units. */
export interface View {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** The drawing's bounds, in its own units. */
export interface Bounds {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Zoom limits, in screen pixels per drawing unit. */
const MIN_SCALE = 0.1;
const MAX_SCALE = 4;
/** A pointer that moved less than this (px) clicked rather than dragged. */
const DRAG_START = 4;
/** The frame's height at most, as a share of the window's. */
const MAX_FRAME = 0.72;

/** The window that shows the whole drawing in a frame of `frame` pixels. */
export function fitView(bounds: Bounds, frame: { width: number; height: number }): View {
  const s = Math.max(bounds.width / frame.width, bounds.height / frame.height);
  const w = frame.width * s;
  const h = frame.height * s;
  return {
    x: bounds.x - (w - bounds.width) / 2,
    y: bounds.y - (h - bounds.height) / 2,
    w,
    h,
  };
}

/** The window at the drawing's own size: centred on an axis it fits, from the top left else. */
function naturalView(bounds: Bounds, frame: { width: number; height: number }): View {
  const place = (start: number, size: number, room: number) =>
    size <= room ? start - (room - size) / 2 : start;
  return {
    x: place(bounds.x, bounds.width, frame.width),
    y: place(bounds.y, bounds.height, frame.height),
    w: frame.width,
    h: frame.height,
  };
}

/** `view` zoomed by `factor` around the drawing point (`px`, `py`), within the zoom limits. */
export function zoomView(view: View, factor: number, px: number, py: number, frameWidth: number) {
  const scale = frameWidth / view.w;
  const next = Math.min(MAX_SCALE, Math.max(MIN_SCALE, scale * factor));
  const f = next / scale;
  return { x: px - (px - view.x) / f, y: py - (py - view.y) / f, w: view.w / f, h: view.h / f };
}

/** The pan-and-zoom state of one graph frame. */
export function usePanZoom(bounds: Bounds, key: string) {
  const frameRef = useRef<HTMLDivElement>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  const [width, setWidth] = useState(0);
  const [view, setView] = useState<View | null>(null);
  const height = Math.max(
    120,
    Math.min(bounds.height * Math.min(1, width / bounds.width || 1), innerHeight * MAX_FRAME),
  );
  const frame = { width: width || 1, height };
  const shown = view ?? naturalView(bounds, frame);
  // The listeners, attached once, read the window and frame of the last render.
  const latest = useRef({ shown, frameWidth: frame.width });
  latest.current = { shown, frameWidth: frame.width };
  // A new shape, or a new frame width, starts from the natural window again.
  useEffect(() => setView(null), [key, width]);

  useEffect(() => {
    const box = frameRef.current!;
    const measure = () => setWidth(box.clientWidth);
    measure();
    const resized = new ResizeObserver(measure);
    resized.observe(box);
    return () => resized.disconnect();
  }, []);

  // The drawing point under a screen point.
  const pointAt = (clientX: number, clientY: number, current: View) => {
    const rect = svgRef.current!.getBoundingClientRect();
    return {
      x: current.x + (clientX - rect.left) * current.w / rect.width,
      y: current.y + (clientY - rect.top) * current.h / rect.height,
    };
  };

  useEffect(() => {
    const svg = svgRef.current;
    if (!svg) return;
    const pointers = new Map<number, { x: number; y: number }>();
    let start: { x: number; y: number; view: View } | null = null;
    let dragged = false;
    let pinch: number | null = null;
    const set = (next: View) => {
      latest.current = { ...latest.current, shown: next };
      setView(next);
    };

    const down = (event: PointerEvent) => {
      pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
      start = { x: event.clientX, y: event.clientY, view: latest.current.shown };
      dragged = false;
      pinch = null;
    };
    const move = (event: PointerEvent) => {
      if (!pointers.has(event.pointerId)) return;
      pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
      if (pointers.size === 2) {
        const [a, b] = [...pointers.values()];
        const distance = Math.hypot(a.x - b.x, a.y - b.y);
        if (pinch !== null && distance > 0) {
          const { shown: current, frameWidth } = latest.current;
          const middle = pointAt((a.x + b.x) / 2, (a.y + b.y) / 2, current);
          set(zoomView(current, distance / pinch, middle.x, middle.y, frameWidth));
        }
        pinch = distance;
        dragged = true;
        return;
      }
      if (!start) return;
      const dx = event.clientX - start.x;
      const dy = event.clientY - start.y;
      if (!dragged && Math.hypot(dx, dy) < DRAG_START) return;
      if (!dragged) svg.setPointerCapture(event.pointerId);
      dragged = true;
      const perPixel = start.view.w / svg.getBoundingClientRect().width;
      set({ ...start.view, x: start.view.x - dx * perPixel, y: start.view.y - dy * perPixel });
    };
    const up = (event: PointerEvent) => {
      pointers.delete(event.pointerId);
      if (pointers.size < 2) pinch = null;
      start = null;
    };
    // A drag ends with a click on whatever is under the pointer: it is not one.
    const click = (event: MouseEvent) => {
      if (dragged) event.preventDefault();
      dragged = false;
    };
    const wheel = (event: WheelEvent) => {
      event.preventDefault();
      const { shown: current, frameWidth } = latest.current;
      const at = pointAt(event.clientX, event.clientY, current);
      set(zoomView(current, Math.exp(-event.deltaY * 0.002), at.x, at.y, frameWidth));
    };
    svg.addEventListener("pointerdown", down);
    svg.addEventListener("pointermove", move);
    svg.addEventListener("pointerup", up);
    svg.addEventListener("pointercancel", up);
    svg.addEventListener("click", click, true);
    svg.addEventListener("wheel", wheel, { passive: false });
    return () => {
      svg.removeEventListener("pointerdown", down);
      svg.removeEventListener("pointermove", move);
      svg.removeEventListener("pointerup", up);
      svg.removeEventListener("pointercancel", up);
      svg.removeEventListener("click", click, true);
      svg.removeEventListener("wheel", wheel);
    };
  }, []);

  const zoomBy = (factor: number) =>
    setView(zoomView(shown, factor, shown.x + shown.w / 2, shown.y + shown.h / 2, frame.width));
  return {
    frameRef,
    svgRef,
    height,
    viewBox: `${shown.x} ${shown.y} ${shown.w} ${shown.h}`,
    zoomIn: () => zoomBy(1.25),
    zoomOut: () => zoomBy(0.8),
    fit: () => setView(fitView(bounds, frame)),
  };
}
