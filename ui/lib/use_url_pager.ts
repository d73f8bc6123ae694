/**
 * The pager of a page's one list, kept in its URL (`page`, `size`; see
 * `page_query.ts`) so the page can be shared, the size remembered for the
 * board's next lists (`page_size.ts`).
 *
 * @module
 */
import { useEffect } from "preact/hooks";
import { useBoard } from "./board_context.ts";
import {
  lastPage,
  namesPage,
  type PageSize,
  type PageState,
  pageStateOf,
  withPage,
} from "./page_query.ts";
import { rememberedPageSize, rememberPageSize } from "./page_size.ts";
import type { Placed } from "./api.ts";

/** A list's page, whether the URL names one, and the setters that move it. */
export interface UrlPager extends PageState {
  /** Whether the URL names a page (else the list shows its default place: page 1, a log's end). */
  named: boolean;
  /** Moves to the page holding `offset`; null: no page in the URL. */
  setOffset(offset: number | null): void;
  /** A new size, and the offset to show (null: no page in the URL). */
  setSize(size: PageSize, offset: number | null): void;
}

/**
 * The list's page and the setters that move it; `path` is the page's path
 * (`/workflows`); `keepFirst` keeps `page=1` in the URL (see `withPage`).
 */
export function useUrlPager(path: string, fallback: PageSize = 50, keepFirst = false): UrlPager {
  const { router } = useBoard();
  const search = router.search.value;
  const state = pageStateOf(search, rememberedPageSize(fallback));
  // Replace, not push: paging should not fill the back button's history, nor scroll away.
  const show = (offset: number | null, size: PageSize) =>
    router.navigate(
      `${path}?${
        withPage(search, offset === null ? null : Math.floor(offset / size) + 1, size, keepFirst)
      }`,
      { replace: true },
    );
  return {
    ...state,
    named: namesPage(search),
    setOffset: (offset) => show(offset, state.size),
    setSize: (size, offset) => {
      rememberPageSize(size);
      show(offset, size);
    },
  };
}

/**
 * Steps back to the last page when the page shown came back empty past the
 * first: its rows went (retried, cleaned, finished) or a link named a page
 * past the end. The page's own place is what counts: while the next page
 * loads, the one shown is still the last one answered.
 */
export function useStepBackWhenEmpty(
  page: Placed<{ items: readonly unknown[]; total: number }> | null,
  setOffset: (offset: number) => void,
): void {
  useEffect(() => {
    if (page && page.items.length === 0 && page.offset > 0) {
      setOffset((lastPage(page.total, page.limit) - 1) * page.limit);
    }
  }, [page]);
}
