/**
 * Keyboard shortcuts: a digit opens the page the page registry gives it
 * (`1`–`6`: Overview, Tasks, Workflows, Schedules, DLQ, Alerts); `/` focuses the job
 * search; `?` lists them all. None fire while the user types in a field or holds a modifier.
 *
 * @module
 */

/** A page a key opens: the path below the base, and the key (links without one are skipped). */
export interface Shortcut {
  path: string;
  key?: string;
}

function isTyping(target: EventTarget | null): boolean {
  return target instanceof HTMLElement &&
    (target.isContentEditable || target.matches("input, textarea, select"));
}

/** Installs the shortcuts; returns the function that removes them. */
export function installShortcuts(
  { pages, navigate, focusSearch, showHelp }: {
    pages: readonly Shortcut[];
    navigate(path: string): void;
    focusSearch(): void;
    showHelp(): void;
  },
): () => void {
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.defaultPrevented || event.metaKey || event.ctrlKey || event.altKey) return;
    if (isTyping(event.target) || document.querySelector("dialog[open]")) return;
    if (event.key === "/" || event.key === "?") {
      event.preventDefault();
      (event.key === "/" ? focusSearch : showHelp)();
      return;
    }
    const page = pages.find(({ key }) => key === event.key);
    if (page) {
      event.preventDefault();
      navigate(page.path);
    }
  };
  addEventListener("keydown", onKeyDown);
  return () => removeEventListener("keydown", onKeyDown);
}
