/**
 * The pager of a page's one list, kept in its URL (`page`, `size`; see
 * `page_query.ts`) so the page can be shared, the size remembered for the
 * board's next lists (`page_size.ts`).
 *
 * @module
 */
import { useEffect } from "preact/hooks";
import { useBoard } from "./board_context.ts";
import { lastPage, type PageSize, type PageState, pageStateOf, withPage } from "./page_query.ts";
import { rememberedPageSize, rememberPageSize } from "./page_size.ts";

/** The list's page and the setters that move it; `path` is the page's path (`/workflows`). */
export function useUrlPager(path: string, fallback: PageSize = 50): PageState & {
  setOffset(offset: number): void;
  setSize(size: PageSize, offset: number): void;
} {
  const { router } = useBoard();
  const search = router.search.value;
  const state = pageStateOf(search, rememberedPageSize(fallback));
  // Replace, not push: paging should not fill the back button's history, nor scroll away.
  const show = (offset: number, size: PageSize) =>
    router.navigate(`${path}?${withPage(search, Math.floor(offset / size) + 1, size)}`, {
      replace: true,
    });
  return {
    ...state,
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
 * past the end.
 */
export function useStepBackWhenEmpty(
  page: { items: readonly unknown[]; total: number } | null,
  { offset, size, setOffset }: Pick<PageState, "offset" | "size"> & {
    setOffset(offset: number): void;
  },
): void {
  useEffect(() => {
    if (page && page.items.length === 0 && offset > 0) {
      setOffset((lastPage(page.total, size) - 1) * size);
    }
  }, [page, offset, page?.total]);
}
