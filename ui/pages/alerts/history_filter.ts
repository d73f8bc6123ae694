/**
 * The history's filters: the notices of one rule, about one task, firing or
 * resolved. A select each for the rule (the rules listed) and the state; the
 * task is typed and applied on Enter or on leaving the field.
 *
 * @module
 */
import { useId, useState } from "preact/hooks";
import { html } from "../../lib/html.ts";

/** What the history is narrowed to (`GET /alerts/history`'s query); absent: everything. */
export interface HistoryFilter {
  rule?: string;
  task?: string;
  state?: "firing" | "resolved";
}

/** The form: applying a change calls `onChange` with the whole filter. */
export function HistoryFilterForm(
  { rules, filter, onChange }: {
    rules: string[];
    filter: HistoryFilter;
    onChange: (filter: HistoryFilter) => void;
  },
) {
  const id = useId();
  const [task, setTask] = useState(filter.task ?? "");
  const set = (next: Partial<HistoryFilter>) => {
    const merged = { ...filter, ...next };
    onChange(Object.fromEntries(Object.entries(merged).filter(([, v]) => v)) as HistoryFilter);
  };
  const valueOf = (e: Event) => (e.currentTarget as HTMLSelectElement).value;
  const applyTask = () => {
    if (task.trim() !== (filter.task ?? "")) set({ task: task.trim() || undefined });
  };
  return html`
    <form class="alerts-history-filter" aria-label="Filter the notices" onSubmit=${(e: Event) => {
      e.preventDefault();
      applyTask();
    }}>
      <div class="alerts-fields">
        <div class="alerts-field">
          <label class="alerts-label" for=${`${id}-rule`}>Rule</label>
          <select id=${`${id}-rule`} class="select" value=${filter.rule ?? ""}
            onChange=${(e: Event) => set({ rule: valueOf(e) || undefined })}>
            <option value="">every rule</option>
            ${rules.map((name) => html`<option key=${name} value=${name}>${name}</option>`)}
          </select>
        </div>
        <div class="alerts-field">
          <label class="alerts-label" for=${`${id}-task`}>Task</label>
          <input id=${`${id}-task`} class="input" autocomplete="off" maxlength="256"
            placeholder="every task" value=${task} onBlur=${applyTask}
            onInput=${(e: Event) => setTask((e.currentTarget as HTMLInputElement).value)} />
        </div>
        <div class="alerts-field">
          <label class="alerts-label" for=${`${id}-state`}>State</label>
          <select id=${`${id}-state`} class="select" value=${filter.state ?? ""}
            onChange=${(e: Event) =>
              set({ state: (valueOf(e) || undefined) as HistoryFilter["state"] })}>
            <option value="">firing or resolved</option>
            <option value="firing">firing</option>
            <option value="resolved">resolved</option>
          </select>
        </div>
      </div>
    </form>
  `;
}
