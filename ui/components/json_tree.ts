/**
 * A JSON value as a collapsible tree that renders lazily: a node's children
 * exist only while it is open, 100 at a time, and a long string shows its
 * first 2,000 characters until asked for the rest. A value 5,000 levels deep
 * or 10 MB wide costs what is on screen; nothing walks the whole value.
 *
 * @module
 */
import { useState } from "preact/hooks";
import { formatCount, formatCountOf } from "../lib/format.ts";
import { html } from "../lib/html.ts";

/** Children shown per step of an open node. */
const CHILDREN_STEP = 100;
/** Characters of a string shown before "show all". */
const STRING_CHARS = 2000;

type Container = Record<string, unknown> | unknown[];

const isContainer = (value: unknown): value is Container =>
  value !== null && typeof value === "object";

/** `{3}` / `[10]`: what a closed node holds. */
function summary(value: Container): string {
  return Array.isArray(value)
    ? `[${formatCount(value.length)}]`
    : `{${formatCount(Object.keys(value).length)}}`;
}

function Leaf({ value }: { value: unknown }) {
  const [all, setAll] = useState(false);
  const type = value === null ? "null" : typeof value;
  if (typeof value === "string" && value.length > STRING_CHARS && !all) {
    return html`
      <span class="jt-string">"${value.slice(0, STRING_CHARS)}…"</span>
      <button type="button" class="link-button"
        onClick=${() => setAll(true)}>show all ${formatCountOf(value.length, "character")}</button>
    `;
  }
  return html`<span class=${`jt-${type}`}>${JSON.stringify(value)}</span>`;
}

function Children({ value }: { value: Container }) {
  const [shown, setShown] = useState(CHILDREN_STEP);
  const keys = Array.isArray(value) ? null : Object.keys(value);
  const size = keys ? keys.length : (value as unknown[]).length;
  const rows = [];
  for (let i = 0; i < Math.min(shown, size); i++) {
    const key = keys ? keys[i] : String(i);
    rows.push(
      html`<${Node} key=${key} name=${key} value=${(value as Record<string, unknown>)[key]} />`,
    );
  }
  return html`
    <ul class="jt-children" role="group">
      ${rows}
      ${size > shown
        ? html`<li><button type="button" class="link-button" onClick=${() =>
          setShown(shown + CHILDREN_STEP)}>show ${
          formatCount(Math.min(CHILDREN_STEP, size - shown))
        } more of ${formatCount(size - shown)}</button></li>`
        : null}
    </ul>
  `;
}

function Node(
  { name, value, open: startOpen = false }: { name?: string; value: unknown; open?: boolean },
) {
  const [open, setOpen] = useState(startOpen);
  const key = name === undefined ? null : html`
    <span class="jt-key">${name}:</span>
  `;
  if (!isContainer(value)) return html`<li role="treeitem">${key}<${Leaf} value=${value} /></li>`;
  return html`
    <li role="treeitem" aria-expanded=${open}>
      <button type="button" class="jt-toggle" onClick=${() => setOpen(!open)}>
        <span class="jt-caret" aria-hidden="true">${open ? "▾" : "▸"}</span>${key}<span
          class="muted">${summary(value)}</span>
      </button>
      ${open ? html`<${Children} value=${value} />` : null}
    </li>
  `;
}

/** The tree of `value`, its top level open. */
export function JsonTree({ value, label }: { value: unknown; label: string }) {
  return html`
    <ul class="json-tree" role="tree" aria-label=${label}>
      <${Node} value=${value} open=${true} />
    </ul>
  `;
}
