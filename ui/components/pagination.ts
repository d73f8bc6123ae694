/**
 * Previous / next paging for a list the API pages with `offset` and `limit`.
 *
 * @module
 */
import { formatCount } from "../lib/format.ts";
import { html } from "../lib/html.ts";

/** Shows `1–50 of 1,234` and moves the offset by one page. */
export function Pagination(
  { offset, limit, total, onChange }: {
    offset: number;
    limit: number;
    total: number;
    onChange(offset: number): void;
  },
) {
  if (total <= limit && offset === 0) return null;
  const last = Math.min(offset + limit, total);
  return html`
    <nav class="pagination" aria-label="Pages">
      <span class="muted">${formatCount(total ? offset + 1 : 0)}–${formatCount(
        last,
      )} of ${formatCount(total)}</span>
      <button
        type="button"
        class="btn btn-small"
        disabled=${offset === 0}
        onClick=${() => onChange(Math.max(0, offset - limit))}
      >Previous</button>
      <button
        type="button"
        class="btn btn-small"
        disabled=${last >= total}
        onClick=${() => onChange(offset + limit)}
      >Next</button>
    </nav>
  `;
}
