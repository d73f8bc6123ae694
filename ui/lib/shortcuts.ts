/**
 * Keyboard shortcuts: `1`–`5` open Overview, Tasks, Workflows, Schedules and
 * DLQ; `/` focuses the job search. None fire while the user types in a
 * field or holds a modifier.
 *
 * @module
 */

/** The pages behind keys `1`–`5`, in order. */
export const SHORTCUT_PAGES = ["/", "/tasks", "/workflows", "/schedules", "/dlq"] as const;

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable ||
    target instanceof HTMLInputElement ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement;
}

/** Installs the shortcuts; returns the function that removes them. */
export function installShortcuts(
  { navigate, focusSearch }: { navigate(path: string): void; focusSearch(): void },
): () => void {
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.defaultPrevented || event.metaKey || event.ctrlKey || event.altKey) return;
    if (isTyping(event.target) || document.querySelector("dialog[open]")) return;
    if (event.key === "/") {
      event.preventDefault();
      focusSearch();
      return;
    }
    const index = Number(event.key) - 1;
    if (Number.isInteger(index) && index >= 0 && index < SHORTCUT_PAGES.length) {
      event.preventDefault();
      navigate(SHORTCUT_PAGES[index]);
    }
  };
  addEventListener("keydown", onKeyDown);
  return () => removeEventListener("keydown", onKeyDown);
}
