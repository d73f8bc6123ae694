/**
 * The colour theme. `auto` leaves `data-theme` unset and the stylesheet
 * follows `prefers-color-scheme` by itself (no flash, no listener). The
 * user's choice is remembered in `localStorage` and wins over the board's
 * `theme` option, which is only the default.
 *
 * @module
 */
import { signal } from "@preact/signals";
import type { Theme } from "./types.ts";

const STORAGE_KEY = "queue-board:theme";

/** The theme in effect. */
export const theme = signal<Theme>("auto");

/** Sets or clears `data-theme` on the root element. */
export function applyTheme(value: Theme, root: HTMLElement = document.documentElement): void {
  if (value === "auto") delete root.dataset.theme;
  else root.dataset.theme = value;
}

function isTheme(value: unknown): value is Theme {
  return value === "light" || value === "dark" || value === "auto";
}

function stored(): Theme | null {
  try {
    const value = localStorage.getItem(STORAGE_KEY);
    return isTheme(value) ? value : null;
  } catch {
    return null; // storage blocked (privacy mode): fall back to the default
  }
}

/** Applies the remembered choice, or the board's default when there is none. */
export function initTheme(boardDefault: Theme): void {
  theme.value = stored() ?? boardDefault;
  applyTheme(theme.value);
}

/** Applies and remembers the user's choice. */
export function chooseTheme(value: Theme): void {
  theme.value = value;
  applyTheme(value);
  try {
    localStorage.setItem(STORAGE_KEY, value);
  } catch {
    // not remembered, but applied
  }
}
