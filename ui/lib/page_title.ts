/**
 * The tab's title: what the page shows, most specific first, then the
 * board's own title (`Job 1a2b3c4d · send-email — queue-board`), so a row
 * of tabs tells its jobs and tasks apart.
 *
 * @module
 */
import { useEffect } from "preact/hooks";
import { useBoard } from "./board_context.ts";

/** `["Job 1a2b3c4d", "send-email"]` and `queue-board` → `Job 1a2b3c4d · send-email — queue-board`. */
export function documentTitle(
  parts: readonly (string | null | undefined)[],
  board: string,
): string {
  const page = parts.filter(Boolean).join(" · ");
  return page && board ? `${page} — ${board}` : page || board;
}

/** Sets the tab's title from `parts` while the calling page is shown. */
export function usePageTitle(...parts: (string | null | undefined)[]): void {
  const title = documentTitle(parts, useBoard().config.title);
  useEffect(() => {
    document.title = title;
  }, [title]);
}
