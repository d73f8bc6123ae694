/**
 * The task list's controls: a type-ahead filter by name, the order, and
 * grouping by name prefix. Each change goes to the URL (see `task_view.ts`)
 * and back to the first page.
 *
 * @module
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { html } from "../../lib/html.ts";
import { TASK_SORTS, type TaskSort } from "../../../src/contract/task_list.ts";
import type { TaskView } from "./task_view.ts";

/** How long the filter waits after the last key before it asks (ms). */
const TYPE_AHEAD_MS = 200;

const SORT_LABELS: Record<string, string> = {
  health: "Health (critical first)",
  oldest: "Oldest waiting job",
  name: "Name",
};
const sortLabel = (sort: TaskSort) => SORT_LABELS[sort] ?? `Most ${sort}`;

/**
 * The filter box: writes to the URL once typing pauses, and follows the URL
 * when something else changes it (back, a link). Its own writes coming back
 * are not taken: keys typed meanwhile would be lost.
 */
function NameFilter({ q, onChange }: { q: string; onChange(q: string): void }) {
  const [text, setText] = useState(q);
  const written = useRef(q);
  useEffect(() => {
    if (q === written.current) return;
    written.current = q;
    setText(q);
  }, [q]);
  useEffect(() => {
    if (text === written.current) return;
    const timer = setTimeout(() => {
      written.current = text;
      onChange(text);
    }, TYPE_AHEAD_MS);
    return () => clearTimeout(timer);
  }, [text]);
  return html`
    <input
      class="input task-filter"
      type="search"
      placeholder="Filter by name"
      aria-label="Filter tasks by name"
      maxlength="256"
      value=${text}
      onInput=${(e: Event) => setText((e.currentTarget as HTMLInputElement).value)}
    />
  `;
}

/** The controls above the task list. */
export function TaskFilters(
  { view, onChange }: { view: TaskView; onChange(change: Partial<TaskView>): void },
) {
  return html`
    <div class="task-filters">
      <${NameFilter} q=${view.q} onChange=${(q: string) => onChange({ q, page: 1 })} />
      <label class="task-sort">
        <span class="muted">Sort</span>
        <select
          class="select"
          aria-label="Sort tasks"
          value=${view.sort}
          onChange=${(e: Event) =>
            onChange({ sort: (e.currentTarget as HTMLSelectElement).value as TaskSort, page: 1 })}
        >
          ${TASK_SORTS.map((sort) =>
            html`<option key=${sort} value=${sort}>${sortLabel(sort)}</option>`
          )}
        </select>
      </label>
      <label class="task-group-toggle">
        <input
          type="checkbox"
          checked=${view.group}
          onChange=${(e: Event) =>
            onChange({ group: (e.currentTarget as HTMLInputElement).checked, page: 1 })}
        />
        Group by prefix
      </label>
    </div>
  `;
}
