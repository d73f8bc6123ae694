/**
 * The per-task table of the overview and the task list: one {@link TaskRow}
 * per task of the page it is given, drawn again only when its task changed.
 *
 * @module
 */
import { Component } from "preact";
import { ScrollArea } from "../../components/scroll_area.ts";
import { html } from "../../lib/html.ts";
import { STATES } from "../../lib/types.ts";
import { TaskRow } from "./task_row.ts";
import type { OverviewTask } from "./use_overview.ts";

/** A row drawn again only for another task object: a stats frame leaves most rows as they were. */
class StableRow extends Component<{ task: OverviewTask }> {
  override shouldComponentUpdate(next: { task: OverviewTask }): boolean {
    return next.task !== this.props.task;
  }

  override render() {
    return html`<${TaskRow} task=${this.props.task} />`;
  }
}

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
          ${tasks.map((task) => html`<${StableRow} key=${task.name} task=${task} />`)}
        </tbody>
      </table>
      <//>
  `;
}
