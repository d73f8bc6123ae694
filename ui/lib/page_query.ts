/**
 * A paged list's place in the URL: `page` (counted from 1) and `size` (one
 * of {@link PAGE_SIZES}) beside the page's own parameters, so a link shows
 * the same page of the same list. What is missing or not offered falls back
 * to page 1 and the size the caller passes (the remembered one).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pageStateOf, withPage } from "./page_query.ts";
 * assert.deepEqual(
 *   pageStateOf("?state=failed&page=3&size=100", 50),
 *   { page: 3, size: 100, offset: 200 },
 * );
 * assert.deepEqual(withPage("?state=failed", 2, 25), "state=failed&page=2&size=25");
 * ```
 *
 * @module
 */

/** The page sizes a pager offers. */
export const PAGE_SIZES = [25, 50, 100, 250] as const;

/** One of {@link PAGE_SIZES}. */
export type PageSize = typeof PAGE_SIZES[number];

/** A page of a list: its number from 1, its size, and the offset they make. */
export interface PageState {
  page: number;
  size: PageSize;
  offset: number;
}

/** Whether `value` is a size the pager offers. */
export function isPageSize(value: number): value is PageSize {
  return (PAGE_SIZES as readonly number[]).includes(value);
}

/** The page and size a query string names, else page 1 and `fallback`. */
export function pageStateOf(search: string, fallback: PageSize): PageState {
  const query = new URLSearchParams(search);
  const page = Number(query.get("page"));
  const size = Number(query.get("size"));
  const state = {
    page: Number.isSafeInteger(page) && page >= 1 ? page : 1,
    size: isPageSize(size) ? size : fallback,
  };
  return { ...state, offset: (state.page - 1) * state.size };
}

/**
 * The query string (without `?`) with `page` and `size` set; `page` is left
 * out for null, and for 1 unless `keepFirst` (a list whose URL without a
 * page shows other lines than its first page: a log's newest).
 */
export function withPage(
  search: string,
  page: number | null,
  size: PageSize,
  keepFirst = false,
): string {
  const query = new URLSearchParams(search);
  query.delete("page");
  query.delete("size");
  if (page !== null && (page > 1 || keepFirst)) query.set("page", String(page));
  query.set("size", String(size));
  return query.toString();
}

/** Whether a query string names a page. */
export function namesPage(search: string): boolean {
  return new URLSearchParams(search).has("page");
}

/** The number of the page holding the last of `total` items (1 for none). */
export function lastPage(total: number, size: number): number {
  return Math.max(1, Math.ceil(total / size));
}
