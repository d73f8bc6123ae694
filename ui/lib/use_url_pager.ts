/**
 * The pager of a page's one list, kept in its URL (`page`, `size`; see
 * `page_query.ts`) so the page can be shared, the size remembered for the
 * board's next lists (`page_size.ts`).
 *
 * @module
 */
import { useBoard } from "./board_context.ts";
import { type PageSize, type PageState, pageStateOf, withPage } from "./page_query.ts";
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
