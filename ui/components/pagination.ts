/**
 * Paging for a list the API pages with `offset` and `limit`: first,
 * previous, a page number field, next and last, and (with `onSize`) the page
 * size, one of 25, 50, 100 or 250. Deep pages cost the server what the first
 * does; "last" is the page holding the `total`th item, and where the total
 * is an estimate (`estimated`, the retrying count the board keeps) the list
 * steps back when that page comes back empty. `offset`, `limit` and `total`
 * are those of the rows shown (the answer that produced them), not the
 * URL's: while the next page loads, the label still names the rows on
 * screen (see `paged_list.ts`, which marks the list busy meanwhile).
 *
 * @module
 */
import { formatCount } from "../lib/format.ts";
import { html } from "../lib/html.ts";
import { lastPage, PAGE_SIZES, type PageSize } from "../lib/page_query.ts";

/** Shows `1–50 of 1,234` and moves the offset by pages; `onSize` adds the page size choice. */
export function Pagination(
  { offset, limit, total, estimated = false, onChange, onSize }: {
    offset: number;
    limit: number;
    total: number;
    /** The total is an estimate: shown as `~1,234`. */
    estimated?: boolean;
    onChange(offset: number): void;
    /** A new size, and the offset that keeps the first row of this page on screen. */
    onSize?(size: PageSize, offset: number): void;
  },
) {
  if (total <= (onSize ? PAGE_SIZES[0] : limit) && offset === 0) return null;
  const end = Math.min(offset + limit, total);
  const current = Math.floor(offset / limit) + 1;
  const last = lastPage(total, limit);
  const go = (page: number) => onChange((Math.min(Math.max(page, 1), last) - 1) * limit);
  // Previous and next move by a page from where the list is (a log opens at its newest lines,
  // not on a page boundary); first, last and the field go to whole pages.
  const button = (label: string, to: () => void, disabled: boolean) =>
    html`
      <button type="button" class="btn btn-small" disabled=${disabled}
        onClick=${to}>${label}</button>
    `;
  return html`
    <nav class="pagination" aria-label="Pages">
      <span class="muted">${formatCount(total ? offset + 1 : 0)}–${formatCount(end)} of ${estimated
        ? "~"
        : ""}${formatCount(total)}</span>
      ${button("First", () => go(1), offset === 0)} ${button(
        "Previous",
        () => onChange(Math.max(0, offset - limit)),
        offset === 0,
      )}
      <label class="pagination-page">Page
        <input key=${current} type="number" class="input" inputmode="numeric" min="1"
          max=${last} value=${current} aria-label="Page number"
          onChange=${(event: Event) => {
            const page = Number((event.currentTarget as HTMLInputElement).value);
            if (Number.isSafeInteger(page)) go(page);
          }} />
        <span>of ${formatCount(last)}</span>
      </label>
      ${button("Next", () => onChange(offset + limit), end >= total)} ${button(
        "Last",
        () => go(last),
        end >= total,
      )}
      ${onSize
        ? html`
          <label class="pagination-size">Per page
            <select class="input" aria-label="Page size" value=${limit}
              onChange=${(event: Event) => {
                const size = Number((event.currentTarget as HTMLSelectElement).value) as PageSize;
                onSize(size, Math.floor(offset / size) * size);
              }}>
              ${PAGE_SIZES.map((size) => html`<option key=${size} value=${size}>${size}</option>`)}
            </select>
          </label>
        `
        : null}
    </nav>
  `;
}
