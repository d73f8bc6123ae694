/**
 * An ARIA tab list: arrow keys move between tabs, the selected one is the
 * only one in the tab order. The panel is rendered by the caller.
 *
 * @module
 */
import type { ComponentChildren } from "preact";
import { html } from "../lib/html.ts";

/** One tab: its key, its label and an optional badge (a count). */
export interface TabItem {
  key: string;
  label: string;
  badge?: ComponentChildren;
}

/** The tab strip; `idPrefix` ties tabs to the panel (`<prefix>-panel`). */
export function Tabs(
  { items, selected, onSelect, label, idPrefix }: {
    items: readonly TabItem[];
    selected: string;
    onSelect(key: string): void;
    label: string;
    idPrefix: string;
  },
) {
  const onKeyDown = (event: KeyboardEvent) => {
    const index = items.findIndex((item) => item.key === selected);
    const step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
    if (!step || index < 0) return;
    event.preventDefault();
    const next = items[(index + step + items.length) % items.length];
    onSelect(next.key);
    document.getElementById(`${idPrefix}-tab-${next.key}`)?.focus();
  };
  return html`
    <div class="tabs" role="tablist" aria-label=${label} onKeyDown=${onKeyDown}>
      ${items.map((item) =>
        html`
          <button
            key=${item.key}
            id=${`${idPrefix}-tab-${item.key}`}
            type="button"
            role="tab"
            class="tab"
            aria-selected=${item.key === selected ? "true" : "false"}
            aria-controls=${`${idPrefix}-panel`}
            tabindex=${item.key === selected ? 0 : -1}
            onClick=${() => onSelect(item.key)}
          >
            <span>${item.label}</span>
            ${item.badge !== undefined ? html`<span class="tab-badge">${item.badge}</span>` : null}
          </button>
        `
      )}
    </div>
  `;
}
