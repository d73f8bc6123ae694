/**
 * The page size a user chose last, remembered in `localStorage` per board
 * (its base path), so every list of that board opens with it.
 *
 * @module
 */
import { isPageSize, type PageSize } from "./page_query.ts";

/** The key for this board: boards on one origin under other base paths keep their own. */
function storageKey(): string {
  return `queue-board:page-size:${new URL(document.baseURI).pathname}`;
}

/** The remembered size, or `fallback` when none is (or storage is blocked). */
export function rememberedPageSize(fallback: PageSize): PageSize {
  try {
    const size = Number(localStorage.getItem(storageKey()));
    return isPageSize(size) ? size : fallback;
  } catch {
    return fallback;
  }
}

/** Remembers `size` for this board's lists. */
export function rememberPageSize(size: PageSize): void {
  try {
    localStorage.setItem(storageKey(), String(size));
  } catch {
    // not remembered (storage blocked), but used for this list
  }
}
