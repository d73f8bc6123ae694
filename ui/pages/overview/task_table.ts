/**
 * The per-task table of the overview and the task list: one {@link TaskRow}
 * per task of the page it is given.
 *
 * @module
 */
import { ScrollArea } from "../../components/scroll_area.ts";
import { html } from "../../lib/html.ts";
import { STATES } from "../../lib/types.ts";
import { TaskRow } from "./task_row.ts";
import type { OverviewTask } from "./use_overview.ts";

/** The task table; links each task to its page. */
export function TaskTable({ tasks }: { tasks: readonly OverviewTask[] }) {
  return html`
    <${ScrollArea}>
      <table class="table cards task-table">
        <thead>
          <tr>
            <th scope="col">Task</th>
            <th scope="col">Health</th>
            ${STATES.map((s) =>
              html`<th key=${s} scope="col" class="num"><span class=${`dot state-${s}`}></span>${s}</th>`
            )}
          </tr>
        </thead>
        <tbody>
          ${tasks.map((task) => html`<${TaskRow} key=${task.name} task=${task} />`)}
        </tbody>
      </table>
      <//>
  `;
}
