/**
 * Applies the configured theme. `auto` leaves `data-theme` unset, and the
 * stylesheet follows `prefers-color-scheme` by itself (no flash, no listener).
 *
 * @module
 */
import type { Theme } from "./types.ts";

/** Sets or clears `data-theme` on the root element. */
export function applyTheme(theme: Theme, root: HTMLElement = document.documentElement): void {
  if (theme === "auto") delete root.dataset.theme;
  else root.dataset.theme = theme;
}
