/**
 * "Find jobs" on a state's tab: an id prefix, a time range, and one
 * condition on a payload (a substring, or a key path and its value). The
 * form only writes the filter into the URL (a new history entry, so Back
 * returns to the list); the tab reads it from there.
 *
 * @module
 */
import { useState } from "preact/hooks";
import { SEARCH_FIELDS, timeFieldOf } from "../../../src/contract/job_filter.ts";
import { useBoard } from "../../lib/board_context.ts";
import { html } from "../../lib/html.ts";
import { href } from "../../lib/router.ts";
import { offsetLabel } from "../../lib/time_zone.ts";
import type { JobState } from "../../lib/types.ts";
import {
  filterOf,
  filterQuery,
  type FilterValues,
  hasFilter,
  isoOfLocal,
  localOfIso,
} from "./search_query.ts";
import { may } from "../../lib/permissions.ts";

type Match = "contains" | "path";

/** The filter form of one state's tab, filled from the URL. */
export function FilterForm({ task, state }: { task: string; state: JobState }) {
  const { router, config } = useBoard();
  // Searching data, result or logs is reading them: only with payload.read.
  const fields = SEARCH_FIELDS.filter((f) => f === "error" || may(config, "payload.read"));
  const search = router.search.value;
  const initial = filterOf(search);
  const [values, setValues] = useState<FilterValues>(initial);
  const [match, setMatch] = useState<Match>(initial.path ? "path" : "contains");
  const set = (name: keyof FilterValues) => (event: Event) =>
    setValues({ ...values, [name]: (event.target as HTMLInputElement).value });
  const go = (query: string) => router.navigate(`/${href("tasks", task)}?${query}`);

  const onSubmit = (event: Event) => {
    event.preventDefault();
    const condition = values.field
      ? match === "contains"
        ? { contains: values.contains, path: "", value: "" }
        : { contains: "", path: values.path, value: values.value }
      : { contains: "", path: "", value: "" };
    go(filterQuery(state, { ...values, ...condition }));
  };
  const when = timeFieldOf(state) === "finished" ? "Finished" : "Created";
  const zone = offsetLabel(Date.now());
  const time = (name: "from" | "to", label: string) =>
    html`
      <label class="field">
        <span class="field-label">${when} ${label} <span class="muted">(${zone})</span></span>
        <input
          class="input"
          type="datetime-local"
          step="1"
          name=${name}
          value=${localOfIso(values[name])}
          onChange=${(e: Event) =>
            setValues({ ...values, [name]: isoOfLocal((e.target as HTMLInputElement).value) })}
        />
      </label>
    `;

  return html`
    <form class="filter-form" role="search" aria-label="Find jobs" onSubmit=${onSubmit}>
      <label class="field">
        <span class="field-label">ID starts with</span>
        <input class="input mono" name="id" value=${values.id} onInput=${set("id")}
          autocomplete="off" spellcheck=${false} />
      </label>
      ${time("from", "from")} ${time("to", "to")}
      <label class="field">
        <span class="field-label">Look in</span>
        <select class="select" name="field" aria-label="Look in" value=${values
          .field} onChange=${set("field")}>
          <option value="">—</option>
          ${fields.map((f) => html`<option key=${f} value=${f}>${f}</option>`)}
        </select>
      </label>
      ${values.field
        ? html`
          <label class="field">
            <span class="field-label">Match</span>
            <select class="select" name="match" aria-label="Match" value=${match}
              onChange=${(e: Event) => setMatch((e.target as HTMLSelectElement).value as Match)}>
              <option value="contains">contains text</option>
              <option value="path">key path equals</option>
            </select>
          </label>
          ${match === "contains"
            ? html`
              <label class="field filter-text">
                <span class="field-label">Text</span>
                <input class="input" name="contains" value=${values.contains}
                  onInput=${set("contains")} required />
              </label>
            `
            : html`
              <label class="field">
                <span class="field-label">Key path</span>
                <input class="input mono" name="path" placeholder="user.id" value=${values.path}
                  onInput=${set("path")} required spellcheck=${false} />
              </label>
              <label class="field">
                <span class="field-label">Value</span>
                <input class="input mono" name="value" value=${values.value}
                  onInput=${set("value")} spellcheck=${false} />
              </label>
            `}
        `
        : null}
      <div class="filter-buttons">
        <button type="submit" class="btn btn-primary">Find</button>
        ${hasFilter(search)
          ? html`<button type="button" class="btn" onClick=${() =>
            go(`state=${state}`)}>Clear</button>`
          : null}
      </div>
    </form>
  `;
}
