/**
 * A paged list's rows and its pager, marked busy (and dimmed) while the
 * next page loads: until that page comes, the rows and the pager's label
 * are both the last page's, so the label always describes the rows shown.
 *
 * @module
 */
import type { ComponentChildren } from "preact";
import { html } from "../lib/html.ts";

/** The rows and the pager; `busy` while the page the URL names is on its way. */
export function PagedList({ busy, children }: { busy: boolean; children?: ComponentChildren }) {
  return html`<div class="paged-list" aria-busy=${busy}>${children}</div>`;
}
