/**
 * A box that scrolls sideways when its content is wider than it (a table on
 * a laptop, a workflow graph on a phone), and shows that it does: a shadow
 * on each edge that hides content.
 *
 * @module
 */
import type { ComponentChildren } from "preact";
import { useEffect, useRef } from "preact/hooks";
import { html } from "../lib/html.ts";

/**
 * Names the edges of `box` beyond which content is hidden, as its
 * `data-more` attribute (`"left right"`, `"left"`, `"right"` or `""`);
 * the stylesheet draws a shadow on each one named.
 */
function markHiddenEdges(box: HTMLElement): void {
  const left = box.scrollLeft > 0;
  // Scroll offsets can be fractional: a pixel short of the end is the end.
  const right = box.scrollLeft + box.clientWidth < box.scrollWidth - 1;
  box.dataset.more = [left && "left", right && "right"].filter(Boolean).join(" ");
}

/**
 * The scrolling box (class `table-wrap` unless told otherwise). Its edges
 * are marked again when it scrolls, and when it or its content change size.
 */
export function ScrollArea(
  { class: className = "table-wrap", children }: { class?: string; children: ComponentChildren },
) {
  const ref = useRef<HTMLDivElement>(null);
  // After every render: the content may be a new element of a new width.
  useEffect(() => {
    const box = ref.current!;
    const mark = () => markHiddenEdges(box);
    const resized = new ResizeObserver(mark);
    resized.observe(box);
    for (const child of box.children) resized.observe(child);
    box.addEventListener("scroll", mark, { passive: true });
    return () => {
      resized.disconnect();
      box.removeEventListener("scroll", mark);
    };
  });
  return html`<div class=${className} ref=${ref}>${children}</div>`;
}
