/**
 * Which jobs of the list on screen are checked: a click toggles one, a
 * shift-click sets the whole range from the last clicked row to it, the
 * header box checks or clears the page, and "all N in this state" widens
 * the selection past the page (the server then acts on the state).
 *
 * @module
 */
import { useState } from "preact/hooks";

/** The selection of one list. */
export interface Selection {
  /** The checked ids (of the page on screen). */
  ids: ReadonlySet<string>;
  /** Whether every job of the state is selected, not only the checked ones. */
  allInState: boolean;
  /** A click on a row's box; with shift, the range from the last click takes its new value. */
  toggle(id: string, shift: boolean): void;
  /** Checks every row of the page, or clears them when all are checked. */
  togglePage(): void;
  /** Selects every job of the state (true) or only the checked ones (false). */
  setAllInState(all: boolean): void;
  /** Clears everything. */
  clear(): void;
}

/** The selection over `rows` (the page on screen, in order). */
export function useSelection(rows: readonly { id: string }[]): Selection {
  const [ids, setIds] = useState<ReadonlySet<string>>(new Set());
  const [anchor, setAnchor] = useState<string | null>(null);
  const [allInState, setAllInState] = useState(false);
  // Rows that left the page (finished, retried) leave the selection.
  const onPage = new Set(rows.map((row) => row.id));
  const checked = [...ids].some((id) => !onPage.has(id))
    ? new Set([...ids].filter((id) => onPage.has(id)))
    : ids;
  return {
    ids: checked,
    allInState,
    toggle(id, shift) {
      const next = new Set(checked);
      const on = !next.has(id);
      const from = shift && anchor !== null ? rows.findIndex((row) => row.id === anchor) : -1;
      const to = rows.findIndex((row) => row.id === id);
      if (from >= 0 && to >= 0) {
        for (let i = Math.min(from, to); i <= Math.max(from, to); i++) {
          if (on) next.add(rows[i].id);
          else next.delete(rows[i].id);
        }
      } else if (on) next.add(id);
      else next.delete(id);
      setIds(next);
      setAnchor(id);
      if (!on) setAllInState(false);
    },
    togglePage() {
      const all = rows.length > 0 && rows.every((row) => checked.has(row.id));
      setIds(all ? new Set() : new Set(rows.map((row) => row.id)));
      setAllInState(false);
    },
    setAllInState,
    clear() {
      setIds(new Set());
      setAllInState(false);
    },
  };
}
